import KithFeed

extension DirectSessionAccess {
    /// Accepts a `push_tokens` hand-off from contact `peer` inside the transaction that opens its direct
    /// message, so the pool changes exactly when the message is stored (see ``FeedStore/acceptPushTokens(_:from:)``).
    @discardableResult
    public func acceptPushTokens(_ content: PushTokens, from peer: String) throws -> PushTokensAcceptance {
        try PushTokenRows.acceptHeld(content, from: peer, in: db, sealer: sealer, now: now)
    }
}
