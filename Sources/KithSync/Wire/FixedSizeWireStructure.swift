import KithCanonical

/// A spec 8.3 structure of fixed length (SyncRequest, SyncOffer, SyncAck): one writer and one
/// bounded reader per type; encoding to bytes and decoding exactly those bytes come from here.
public protocol FixedSizeWireStructure: Sendable {
    /// The exact encoded length in bytes.
    static var wireLength: Int { get }
    /// Appends the structure's bytes.
    func write(to writer: inout ByteWriter)
    /// Reads the structure's fields from the cursor.
    init(reading reader: inout ByteReader) throws(SyncWireError)
}

extension FixedSizeWireStructure {
    /// The wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.wireLength)
        write(to: &writer)
        return writer.bytes
    }

    /// Decodes exactly ``wireLength`` bytes; anything shorter or longer is rejected.
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader)
        do { try reader.expectEnd() } catch { throw .malformed(error) }
    }
}
