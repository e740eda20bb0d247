import KithIdentity

/// One recorded fork: a feed held here and another copy of it disagree at one sequence (two entries signed by the
/// same key, or a chain that breaks). The entry held first is kept; the other is kept only as evidence.
public struct ForkRecord: Sendable, Hashable {
    /// The forked feed.
    public let feedID: FeedID
    /// The sequence at which the two copies disagree.
    public let sequence: UInt32
    /// The id of the entry this store holds (the one seen first).
    public let keptMessageID: String
    /// The id of the conflicting entry (stored only as evidence).
    public let conflictingMessageID: String
    /// Why they conflict, e.g. `same_sequence`.
    public let reason: String
    /// When the conflict was detected (seconds since 1970).
    public let detectedAt: Int64
    /// When the user acknowledged it (after checking with the feed's owner), nil while it is open.
    public let acknowledgedAt: Int64?

    /// Creates a record.
    public init(
        feedID: FeedID, sequence: UInt32, keptMessageID: String, conflictingMessageID: String, reason: String,
        detectedAt: Int64, acknowledgedAt: Int64?
    ) {
        self.feedID = feedID
        self.sequence = sequence
        self.keptMessageID = keptMessageID
        self.conflictingMessageID = conflictingMessageID
        self.reason = reason
        self.detectedAt = detectedAt
        self.acknowledgedAt = acknowledgedAt
    }
}
