/// The bounds a ``MessageReassembler`` enforces; defaults come from ``SyncLimits``.
public struct ReassemblyLimits: Hashable, Sendable {
    /// Messages reassembled at the same time.
    public var maximumConcurrentReassemblies: Int
    /// Bytes buffered across all unfinished messages.
    public var maximumBufferedBytes: Int
    /// Largest body of one message.
    public var maximumBodyLength: Int
    /// Largest `total_chunks` of one message.
    public var maximumChunksPerMessage: Int
    /// Seconds without a new chunk after which an unfinished message is dropped.
    public var inactivityTimeout: Double

    /// Creates limits, by default those of ``SyncLimits``.
    public init(
        maximumConcurrentReassemblies: Int = SyncLimits.maximumConcurrentReassemblies,
        maximumBufferedBytes: Int = SyncLimits.maximumBufferedBytes,
        maximumBodyLength: Int = SyncLimits.maximumBodyLength,
        maximumChunksPerMessage: Int = SyncLimits.maximumChunksPerMessage,
        inactivityTimeout: Double = SyncLimits.reassemblyTimeout
    ) {
        self.maximumConcurrentReassemblies = maximumConcurrentReassemblies
        self.maximumBufferedBytes = maximumBufferedBytes
        self.maximumBodyLength = maximumBodyLength
        self.maximumChunksPerMessage = maximumChunksPerMessage
        self.inactivityTimeout = inactivityTimeout
    }
}
