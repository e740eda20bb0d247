import KithIdentity
import KithMLS

/// One member of a group: its feed and its leaf in the ratchet tree.
public struct GroupMember: Sendable, Hashable {
    /// The member's feed.
    public let feed: FeedID
    /// The member's leaf index.
    public let leaf: UInt32

    /// Creates a member record.
    public init(feed: FeedID, leaf: UInt32) {
        self.feed = feed
        self.leaf = leaf
    }
}
