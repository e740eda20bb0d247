import KithIdentity

/// A followed feed and how much of it is held.
public struct SyncFeedState: Hashable, Sendable {
    /// The feed.
    public var feedID: FeedID
    /// Highest sequence held contiguously from 0; nil when nothing is held.
    public var haveSequence: UInt32?

    /// Sequences held beyond ``haveSequence`` (ahead of a gap, not yet linked): inclusive,
    /// ascending, non-adjacent ranges, sent as ``SyncHeldRanges`` so the peer skips them.
    public var heldRanges: [ClosedRange<UInt32>]

    /// Creates a feed state.
    public init(feedID: FeedID, haveSequence: UInt32?, heldRanges: [ClosedRange<UInt32>] = []) {
        self.feedID = feedID
        self.haveSequence = haveSequence
        self.heldRanges = heldRanges
    }

    /// The `have_seq` wire value (0xFFFFFFFF for nothing).
    public var wireHaveSequence: UInt32 { haveSequence ?? SyncLimits.haveNothing }
}
