/// Why a chunk or a reassembled message was rejected by ``MessageReassembler``.
public enum ReassemblyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The chunk has `total_chunks` = 0.
    case zeroTotalChunks(SyncMessageID)
    /// The chunk's index is not below its `total_chunks`.
    case chunkIndexOutOfRange(SyncMessageID, index: UInt16, total: UInt16)
    /// The chunk carries no data.
    case emptyChunk(SyncMessageID)
    /// `total_chunks` exceeds ``SyncLimits/maximumChunksPerMessage``.
    case tooManyChunks(SyncMessageID, total: UInt16)
    /// The chunk's `total_chunks` differs from the one its message declared first; the message is dropped.
    case totalChunksMismatch(SyncMessageID, declared: UInt16, received: UInt16)
    /// This chunk index was already received; the chunk is ignored, the message kept.
    case duplicateChunk(SyncMessageID, index: UInt16)
    /// The message grew beyond the per-message bound; the message is dropped.
    case messageTooLarge(SyncMessageID, bytes: Int)
    /// Starting this message would exceed the number of concurrent reassemblies.
    case tooManyConcurrentReassemblies(limit: Int)
    /// Buffering this chunk would exceed the bytes buffered across all reassemblies.
    case bufferFull(limit: Int)
    /// The assembled envelope does not hash to its message id; the message is dropped.
    case hashMismatch(SyncMessageID)
    /// The assembled body's encoding (compression) was refused; the message is dropped.
    case invalidBody(SyncMessageID, CompressionError)

    public var description: String {
        switch self {
        case .zeroTotalChunks(let id): "chunk of \(id) declares zero total chunks"
        case .chunkIndexOutOfRange(let id, let index, let total): "chunk \(index) of \(id) is out of range (total \(total))"
        case .emptyChunk(let id): "chunk of \(id) carries no data"
        case .tooManyChunks(let id, let total): "\(id) declares \(total) chunks, more than \(SyncLimits.maximumChunksPerMessage)"
        case .totalChunksMismatch(let id, let declared, let received):
            "chunk of \(id) declares \(received) total chunks, the message declared \(declared); message dropped"
        case .duplicateChunk(let id, let index): "chunk \(index) of \(id) received twice"
        case .messageTooLarge(let id, let bytes): "\(id) reached \(bytes) bytes, over the per-message bound; message dropped"
        case .tooManyConcurrentReassemblies(let limit): "already reassembling \(limit) messages; finish or time out one first"
        case .bufferFull(let limit): "reassembly buffers would exceed \(limit) bytes"
        case .hashMismatch(let id): "assembled message does not hash to its id \(id); message dropped"
        case .invalidBody(let id, let error): "body of \(id) refused: \(error)"
        }
    }
}
