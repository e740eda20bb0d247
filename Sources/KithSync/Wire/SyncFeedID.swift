import KithCanonical

/// A feed id on the sync wire: the raw 32 bytes of SHA-256(author public key) (spec 8.3).
public struct SyncFeedID: Hashable, Sendable, CustomStringConvertible {
    /// The 32 raw bytes.
    public let bytes: [UInt8]

    /// Wraps 32 raw bytes.
    /// - Throws: ``SyncWireError/invalidIDLength(_:)`` unless exactly 32 bytes are given.
    public init(bytes: [UInt8]) throws(SyncWireError) {
        guard bytes.count == SyncLimits.idLength else { throw .invalidIDLength(bytes.count) }
        self.bytes = bytes
    }

    /// Wraps bytes known to be 32 long (an HMAC-SHA256 output).
    init(exactly bytes: [UInt8]) {
        precondition(bytes.count == SyncLimits.idLength, "a feed id is 32 bytes")
        self.bytes = bytes
    }

    /// Reads 32 bytes from a cursor.
    init(reading reader: inout ByteReader) throws(ByteReaderError) {
        bytes = try reader.readBytes(SyncLimits.idLength)
    }

    /// The base64url form used in envelopes (43 characters).
    public var description: String { Base64URL.encode(bytes) }
}
