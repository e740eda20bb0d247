/// One envelope to send.
public struct SyncOutgoingEnvelope: Hashable, Sendable {
    /// Its sequence in the feed.
    public var sequence: UInt32
    /// The canonical envelope bytes.
    public var bytes: [UInt8]
    /// Its scheduling class (spec 8.5).
    public var priority: SyncPriority

    /// Creates an outgoing envelope.
    public init(sequence: UInt32, bytes: [UInt8], priority: SyncPriority = .content) {
        self.sequence = sequence
        self.bytes = bytes
        self.priority = priority
    }
}
