/// A followed feed and how much of it is held.
public struct SyncFeedState: Hashable, Sendable {
    /// The feed.
    public var feedID: SyncFeedID
    /// Highest sequence held contiguously from 0; nil when nothing is held.
    public var haveSequence: UInt32?

    /// Creates a feed state.
    public init(feedID: SyncFeedID, haveSequence: UInt32?) {
        self.feedID = feedID
        self.haveSequence = haveSequence
    }

    /// The `have_seq` wire value (0xFFFFFFFF for nothing).
    public var wireHaveSequence: UInt32 { haveSequence ?? SyncLimits.haveNothing }
}
