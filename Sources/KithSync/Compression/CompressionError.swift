/// Why a compressed message body was refused.
public enum CompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The declared decompressed size is above the 64 KB envelope bound.
    case declaredSizeTooLarge(Int)
    /// The declared decompressed size is zero.
    case emptyEnvelope
    /// The input is not a zstd frame.
    case notZstdFrame
    /// The zstd frame does not state its content size, so it cannot be bounded before decoding.
    case missingContentSize
    /// The frame's content size differs from the declared size.
    case contentSizeMismatch(declared: Int, frame: UInt64)
    /// Bytes follow the single zstd frame.
    case trailingBytes(Int)
    /// zstd reported an error while decoding.
    case corruptFrame(String)
    /// Decoding produced a different number of bytes than declared.
    case decompressedSizeMismatch(declared: Int, actual: Int)
    /// zstd could not compress (or allocate a context).
    case compressionFailed(String)
    /// A body's 1-byte encoding flag is neither 0x00 (raw) nor 0x01 (zstd).
    case unknownEncoding(UInt8)
    /// A body is empty or too short for its encoding.
    case truncatedBody
    /// This build has no zstd (a platform without libzstd): compression is never negotiated.
    case unavailable

    public var description: String {
        switch self {
        case .declaredSizeTooLarge(let size): "declared decompressed size \(size) exceeds the \(SyncLimits.maximumMessageLength)-byte bound"
        case .emptyEnvelope: "declared decompressed size is zero"
        case .unavailable: "this build of Kith has no zstd; compression is not negotiated"
        case .notZstdFrame: "compressed body is not a zstd frame"
        case .missingContentSize: "zstd frame does not declare its content size; refusing to decompress unbounded data"
        case .contentSizeMismatch(let declared, let frame): "zstd frame content size \(frame) differs from the declared \(declared)"
        case .trailingBytes(let count): "\(count) bytes follow the zstd frame"
        case .corruptFrame(let reason): "zstd frame is corrupt: \(reason)"
        case .decompressedSizeMismatch(let declared, let actual): "zstd produced \(actual) bytes, declared \(declared)"
        case .compressionFailed(let reason): "zstd compression failed: \(reason)"
        case .unknownEncoding(let flag): "unknown message body encoding 0x\(String(flag, radix: 16))"
        case .truncatedBody: "message body is too short for its encoding"
        }
    }
}
