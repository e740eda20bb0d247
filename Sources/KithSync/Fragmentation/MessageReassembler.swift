/// Reassembles chunks into verified messages, keyed by message id, with hard bounds.
///
/// Rules, each with a typed ``ReassemblyError``:
/// - every chunk of a message must declare the same `total_chunks` (mismatch drops the message);
/// - `chunk_index` < `total_chunks` ≤ the chunk bound, data non-empty;
/// - an index already received is a duplicate (the chunk is ignored, the message kept);
/// - a message may not grow beyond the body bound (drops the message);
/// - at most N messages are in progress, and at most B bytes are buffered across them;
/// - an unfinished message with no new chunk for the inactivity timeout is dropped;
/// - the complete body is decoded (optionally decompressed) and must hash (SHA-256) to the id.
///
/// Time is passed in by the caller (`now`, in seconds on any monotonic clock), so tests and the
/// simulated link can drive it deterministically.
public struct MessageReassembler: Sendable {
    private struct Partial: Sendable {
        var totalChunks: UInt16
        var chunks: [UInt16: [UInt8]]
        var byteCount: Int
        var lastActivity: Double
    }

    /// The bounds in force.
    public let limits: ReassemblyLimits
    /// True when bodies carry the compression flag (``SyncCapabilities/zstdEnvelopes`` negotiated).
    public let compressionNegotiated: Bool
    /// True when bodies may use the built-in dictionary (``SyncCapabilities/zstdEnvelopeDictionary`` negotiated too).
    public let dictionaryNegotiated: Bool
    private var partials: [SyncMessageID: Partial] = [:]
    /// Bytes currently buffered across unfinished messages.
    public private(set) var bufferedBytes = 0

    /// Creates an empty reassembler.
    public init(limits: ReassemblyLimits = ReassemblyLimits(), compressionNegotiated: Bool = false, dictionaryNegotiated: Bool = false) {
        self.limits = limits
        self.compressionNegotiated = compressionNegotiated
        self.dictionaryNegotiated = compressionNegotiated && dictionaryNegotiated
    }

    /// Messages currently in progress.
    public var inProgressCount: Int { partials.count }

    /// Ids of the messages in progress.
    public var inProgress: Set<SyncMessageID> { Set(partials.keys) }

    /// Accepts one chunk; returns the verified message when it was the last one missing.
    ///
    /// Unfinished messages idle for longer than the timeout are dropped first.
    public mutating func accept(_ chunk: SyncChunk, now: Double) throws(ReassemblyError) -> ReceivedMessage? {
        _ = expire(now: now)
        let id = chunk.messageID
        guard chunk.totalChunks > 0 else { throw .zeroTotalChunks(id) }
        guard chunk.chunkIndex < chunk.totalChunks else {
            throw .chunkIndexOutOfRange(id, index: chunk.chunkIndex, total: chunk.totalChunks)
        }
        guard !chunk.data.isEmpty else { throw .emptyChunk(id) }
        guard Int(chunk.totalChunks) <= limits.maximumChunksPerMessage else { throw .tooManyChunks(id, total: chunk.totalChunks) }

        var partial: Partial
        if let existing = partials[id] {
            partial = existing
            guard partial.totalChunks == chunk.totalChunks else {
                drop(id)
                throw .totalChunksMismatch(id, declared: partial.totalChunks, received: chunk.totalChunks)
            }
            guard partial.chunks[chunk.chunkIndex] == nil else { throw .duplicateChunk(id, index: chunk.chunkIndex) }
        } else {
            guard partials.count < limits.maximumConcurrentReassemblies else {
                throw .tooManyConcurrentReassemblies(limit: limits.maximumConcurrentReassemblies)
            }
            partial = Partial(totalChunks: chunk.totalChunks, chunks: [:], byteCount: 0, lastActivity: now)
        }
        let grown = partial.byteCount + chunk.data.count
        guard grown <= limits.maximumBodyLength else {
            drop(id)
            throw .messageTooLarge(id, bytes: grown)
        }
        guard bufferedBytes + chunk.data.count <= limits.maximumBufferedBytes else {
            throw .bufferFull(limit: limits.maximumBufferedBytes)
        }
        partial.chunks[chunk.chunkIndex] = chunk.data
        partial.byteCount = grown
        partial.lastActivity = now
        bufferedBytes += chunk.data.count

        guard partial.chunks.count == Int(partial.totalChunks) else {
            partials[id] = partial
            return nil
        }
        partials[id] = partial
        drop(id)
        var body: [UInt8] = []
        body.reserveCapacity(partial.byteCount)
        for index in 0..<partial.totalChunks {
            body += partial.chunks[index] ?? []
        }
        let envelope: [UInt8]
        do {
            envelope = try MessageBody.decode(body, compressionNegotiated: compressionNegotiated, dictionaryNegotiated: dictionaryNegotiated)
        } catch {
            throw .invalidBody(id, error)
        }
        guard id.matches(envelope: envelope) else { throw .hashMismatch(id) }
        return ReceivedMessage(messageID: id, envelope: envelope)
    }

    /// Drops unfinished messages idle for longer than the timeout; returns their ids.
    public mutating func expire(now: Double) -> [SyncMessageID] {
        let stale = partials.filter { now - $0.value.lastActivity > limits.inactivityTimeout }.map(\.key)
        for id in stale { drop(id) }
        return stale
    }

    /// Drops an unfinished message (for example when its sender disconnected).
    public mutating func drop(_ id: SyncMessageID) {
        guard let partial = partials.removeValue(forKey: id) else { return }
        bufferedBytes -= partial.byteCount
    }
}
