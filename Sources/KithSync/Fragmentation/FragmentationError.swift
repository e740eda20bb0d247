/// Why a message could not be split into chunks.
public enum FragmentationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is empty.
    case emptyBody
    /// The body is larger than ``SyncLimits/maximumBodyLength``.
    case bodyTooLarge(Int)
    /// The per-chunk data size is not positive.
    case invalidChunkDataLength(Int)
    /// The body would need more chunks than ``SyncLimits/maximumChunksPerMessage``.
    case tooManyChunks(Int)

    public var description: String {
        switch self {
        case .emptyBody: "cannot fragment an empty message"
        case .bodyTooLarge(let count): "body of \(count) bytes exceeds the bound (\(SyncLimits.maximumBodyLength) for envelopes, the session limit for blobs)"
        case .invalidChunkDataLength(let count): "chunk data length must be positive, got \(count)"
        case .tooManyChunks(let count): "body needs \(count) chunks, more than allowed (\(SyncLimits.maximumChunksPerMessage) per message, \(SyncLimits.maximumChunksPerBlob) per blob)"
        }
    }
}
