import Crypto
import KithCanonical

/// A message id on the sync wire: the raw 32 bytes of SHA-256(canonical envelope) (spec 6, 8.3).
public struct SyncMessageID: Hashable, Sendable, CustomStringConvertible {
    /// The 32 raw bytes.
    public let bytes: [UInt8]

    /// Wraps 32 raw bytes.
    /// - Throws: ``SyncWireError/invalidIDLength(_:)`` unless exactly 32 bytes are given.
    public init(bytes: [UInt8]) throws(SyncWireError) {
        guard bytes.count == SyncLimits.idLength else { throw .invalidIDLength(bytes.count) }
        self.bytes = bytes
    }

    /// The id of an envelope: SHA-256 of its canonical bytes.
    public init(envelope: [UInt8]) {
        bytes = Array(SHA256.hash(data: envelope))
    }

    /// Reads 32 bytes from a cursor.
    init(reading reader: inout ByteReader) throws(ByteReaderError) {
        bytes = try reader.readBytes(SyncLimits.idLength)
    }

    /// True when `envelope` hashes to this id (constant-time comparison).
    public func matches(envelope: [UInt8]) -> Bool {
        ConstantTime.equals(Array(SHA256.hash(data: envelope)), bytes)
    }

    /// The base64url form used in envelopes (43 characters).
    public var description: String { Base64URL.encode(bytes) }
}
