import KithFeed
import KithIdentity

/// A message as read back from the store, with its decrypted content when readable.
public struct StoredMessage: Sendable {
    /// The message id.
    public let messageID: MessageID
    /// The author.
    public let feedID: FeedID
    /// Position in the feed.
    public let sequence: UInt32
    /// Author's timestamp (Unix seconds).
    public let timestamp: Int64
    /// Routing type.
    public let type: String
    /// Audience string.
    public let audience: String
    /// Decrypted content, when this identity could read it and it is not tombstoned.
    public let content: Content?
    /// True when a tombstone retracted it.
    public let tombstoned: Bool
    /// Local receipt time, Unix milliseconds.
    public let receivedAt: Int64
}

/// The newest linked position of a feed.
public struct FeedHead: Sendable, Equatable {
    /// Highest linked sequence.
    public let sequence: UInt32
    /// Id of that message (or stub).
    public let messageID: MessageID
}

/// A feed this store follows.
public struct FollowedFeed: Sendable {
    /// The feed.
    public let feedID: FeedID
    /// True for the local identity's own feed.
    public let isLocal: Bool
    /// True when fork evidence was recorded.
    public let isForked: Bool
    /// The linked head, if any message is held.
    public let head: FeedHead?
    /// Entries held ahead of a gap.
    public let pendingCount: Int
}
