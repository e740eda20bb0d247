/// How far a streamed ingest (``FeedStore/ingest(streaming:batchSize:decryptor:progress:)``) has
/// come, reported after each batch commits.
public struct IngestProgress: Sendable, Equatable {
    /// Entries whose batch has committed: durable from here on.
    public var committed = 0
    /// Of those, entries stored, held ahead of a gap, already held, or kept for relay.
    public var accepted = 0
    /// Of those, entries rejected or recorded as fork evidence.
    public var refused = 0
    /// Transactions committed.
    public var batches = 0

    /// Creates an empty progress record.
    public init() {}
}
