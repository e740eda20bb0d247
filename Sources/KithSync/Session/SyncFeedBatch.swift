/// Messages to send for one feed.
public struct SyncFeedBatch: Hashable, Sendable {
    /// The sender's latest sequence of the feed (nil when it holds nothing).
    public var latestSequence: UInt32?
    /// Envelopes to send, newest first.
    public var envelopes: [SyncOutgoingEnvelope]

    /// Creates a batch.
    public init(latestSequence: UInt32?, envelopes: [SyncOutgoingEnvelope]) {
        self.latestSequence = latestSequence
        self.envelopes = envelopes
    }
}
