import KithIdentity

/// What a sync session needs to know of a followed feed (``FeedStore/replicationStates()``):
/// read for every feed at once, in a fixed number of statements.
public struct FeedReplicationState: Hashable, Sendable {
    /// The feed.
    public let feedID: FeedID
    /// True for the local identity's own feed.
    public let isLocal: Bool
    /// The linked head's sequence (contiguous from 0), nil when nothing is linked.
    public let headSequence: UInt32?
    /// Sequences of signed entries (envelopes, self stubs) held ahead of a gap, ascending.
    public let heldSequences: [UInt32]

    /// Creates a state.
    public init(feedID: FeedID, isLocal: Bool, headSequence: UInt32?, heldSequences: [UInt32]) {
        self.feedID = feedID
        self.isLocal = isLocal
        self.headSequence = headSequence
        self.heldSequences = heldSequences
    }
}
