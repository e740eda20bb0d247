import KithFeed
import KithIdentity

/// A whitelist token a contact handed this identity, ready to knock with.
public struct HeldPushToken: Sendable, Equatable, CustomStringConvertible {
    /// The contact who handed it over (the one the knock wakes).
    public let peer: FeedID
    /// The 20 token bytes.
    public let token: [UInt8]
    /// The contact's gateway API base (`…/api/v1/`).
    public let endpoint: String
    /// When the token expires (seconds since 1970), nil when not said.
    public let expiresAt: Int64?

    /// Redacted: never prints the token.
    public var description: String { "HeldPushToken(peer: \(peer.string), endpoint: \(endpoint))" }
}

/// How many push tokens are in play with one contact.
public struct PushTokenPoolRecord: Sendable, Equatable {
    /// The contact.
    public let peer: FeedID
    /// Tokens this identity issued to the contact and not seen used.
    public let issuedUnused: Int
    /// Tokens issued to the contact that a knock used.
    public let issuedUsed: Int
    /// Tokens the contact handed this identity, unused and not dead.
    public let heldUnused: Int
    /// Held tokens used or dead.
    public let heldSpent: Int
}

/// Who an incoming knock came from, by the token it carried.
public struct PushKnockOrigin: Sendable, Equatable {
    /// The contact the token was issued to (nil when the contact was removed since: the token is being revoked).
    public let peer: FeedID?
    /// True when this token had knocked before (a replay, or the gateway delivered twice).
    public let wasUsedBefore: Bool

    /// Creates an origin.
    public init(peer: FeedID?, wasUsedBefore: Bool) {
        self.peer = peer
        self.wasUsedBefore = wasUsedBefore
    }
}

/// What accepting a `push_tokens` message changed.
public struct PushTokensAcceptance: Sendable, Equatable {
    /// Tokens added to the contact's pool.
    public let added: Int
    /// Unused tokens dropped because the contact moved to another gateway endpoint.
    public let replaced: Int

    /// Creates a report.
    public init(added: Int, replaced: Int) {
        self.added = added
        self.replaced = replaced
    }
}
