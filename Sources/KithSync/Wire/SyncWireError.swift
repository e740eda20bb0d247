import KithCanonical

/// Why a sync wire structure or record could not be decoded.
public enum SyncWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes ended early or had bytes left over.
    case malformed(ByteReaderError)
    /// A feed or message id was not 32 bytes.
    case invalidIDLength(Int)
    /// A SyncAck status other than 0x00 (ok) or 0x01 (invalid).
    case invalidAckStatus(UInt8)
    /// A SyncChunk declared `total_chunks` = 0.
    case zeroTotalChunks
    /// A SyncChunk's `chunk_index` is not below its `total_chunks`.
    case chunkIndexOutOfRange(index: UInt16, total: UInt16)
    /// A SyncChunk carried no data (the spec's minimum is 37 bytes).
    case emptyChunkData
    /// A SyncChunk is longer than a record can carry.
    case chunkTooLong(Int)
    /// A record kind byte this protocol version does not define.
    case unknownRecordKind(UInt8)
    /// A padding record contained a non-zero byte.
    case nonZeroPadding
    /// A Hello frame is malformed or from an unsupported version.
    case unsupportedVersion(UInt8)
    /// A held-ranges record (0x06) breaks its rules (count, order, reserved sequence).
    case invalidHeldRanges(String)

    public var description: String {
        switch self {
        case .malformed(let error): "malformed sync structure: \(error)"
        case .invalidIDLength(let count): "feed and message ids are 32 raw bytes, got \(count)"
        case .invalidAckStatus(let status): "SyncAck status must be 0x00 or 0x01, got 0x\(String(status, radix: 16))"
        case .zeroTotalChunks: "SyncChunk total_chunks must be at least 1"
        case .chunkIndexOutOfRange(let index, let total): "SyncChunk chunk_index \(index) is not below total_chunks \(total)"
        case .emptyChunkData: "SyncChunk carries no data (minimum 37 bytes)"
        case .chunkTooLong(let count): "SyncChunk of \(count) bytes exceeds the 65535-byte record limit"
        case .unknownRecordKind(let kind): "unknown sync record kind 0x\(String(kind, radix: 16)); the peer speaks another version"
        case .nonZeroPadding: "padding records must be all zero bytes"
        case .unsupportedVersion(let version): "unsupported sync protocol version \(version)"
        case .invalidHeldRanges(let reason): "invalid held-ranges record: \(reason)"
        }
    }
}
