/// Where an account stands in a hand-over to a new device (`Account.moveSend(to:…)`): while it hands over, and
/// after, every append is refused, so nothing is posted that the stream would not carry.
enum AccountMoveState: Sendable, Equatable {
    /// No move under way.
    case idle
    /// A move is under way (from before the stream is written until `done` or a failure).
    case handingOver
    /// The identity went to another device; this account holds no keys any more.
    case movedAway(confirmation: String, movedAt: Int64)
}

extension Account {
    /// Throws while a move is under way or after it ended (called under the store's write lock by every append).
    func checkNotMoving() throws(KithError) {
        switch moveState.withLock({ $0 }) {
        case .idle: return
        case .handingOver: throw .continuity(.moveInProgress)
        case .movedAway(let confirmation, let movedAt):
            throw .continuity(.movedAway(feedID: feedID.string, movedAt: movedAt, confirmation: confirmation))
        }
    }

    /// Claims the account for a move; throws when one is under way or done.
    func beginHandover() throws(KithError) {
        try checkNotMoving()
        let claimed = moveState.withLock { state -> Bool in
            guard state == .idle else { return false }
            state = .handingOver
            return true
        }
        guard claimed else { throw .continuity(.moveInProgress) }
    }
}
