import KithCanonical

/// The 32-byte feed slot of the spec 8.3 wire structures (``SyncRequest``, ``SyncOffer``,
/// ``SyncHeldRanges``): a feed's per-link blinded tag, `HMAC-SHA256(key, feed_id[32])`
/// (docs/sync.md, section 9b), never the feed id itself.
///
/// A tag stands for a feed only on the link it was made for; ``SyncFeedBlinding`` produces it
/// from a `FeedID` (KithIdentity), and the session maps received tags back to the feeds it asked
/// for or serves. Feed ids themselves are `FeedID` everywhere else.
public struct SyncFeedTag: Hashable, Sendable, CustomStringConvertible {
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
        precondition(bytes.count == SyncLimits.idLength, "a feed tag is 32 bytes")
        self.bytes = bytes
    }

    /// Reads 32 bytes from a bounded cursor.
    init(reading reader: inout ByteReader) throws(ByteReaderError) {
        bytes = try reader.readBytes(SyncLimits.idLength)
    }

    /// Appends the 32 bytes.
    func write(to writer: inout ByteWriter) {
        writer.write(bytes: bytes)
    }

    /// The base64url form (43 characters), for logs and tests.
    public var description: String { Base64URL.encode(bytes) }
}
