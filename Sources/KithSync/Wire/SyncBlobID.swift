import Crypto
import KithCanonical

/// A blob on the sync wire: the raw 32 bytes of SHA-256 of the (already encrypted) blob, the
/// same hash the store keys blobs by (`content_hash` is its base64url form).
public struct SyncBlobID: Hashable, Sendable, CustomStringConvertible {
    /// The 32 raw bytes.
    public let bytes: [UInt8]

    /// Wraps 32 raw bytes.
    /// - Throws: ``SyncWireError/invalidIDLength(_:)`` unless exactly 32 bytes are given.
    public init(bytes: [UInt8]) throws(SyncWireError) {
        guard bytes.count == SyncLimits.idLength else { throw .invalidIDLength(bytes.count) }
        self.bytes = bytes
    }

    /// The id of a blob: SHA-256 of its bytes.
    public init(blob: [UInt8]) {
        bytes = Array(SHA256.hash(data: blob))
    }

    /// Parses the store's base64url `content_hash`; nil unless it is 32 bytes of strict base64url.
    public init?(contentHash: String) {
        guard let raw = try? Base64URL.decode(contentHash), raw.count == SyncLimits.idLength else { return nil }
        bytes = raw
    }

    /// Reads 32 bytes from a cursor.
    init(reading reader: inout ByteReader) throws(ByteReaderError) {
        bytes = try reader.readBytes(SyncLimits.idLength)
    }

    /// The chunk key under which the blob's fragments travel (a ``SyncChunk`` `message_id`).
    var chunkKey: SyncMessageID {
        // Cannot fail: both are 32 bytes.
        (try? SyncMessageID(bytes: bytes)) ?? SyncMessageID(envelope: bytes)
    }

    /// The base64url form (the store's `content_hash`).
    public var description: String { Base64URL.encode(bytes) }
}
