import KithCanonical

/// "Send me this blob if it is at most `max_bytes`" (Kith record 0x07, 36 bytes:
/// blob_hash 32 | max_bytes u32). The holder answers with the blob's chunks (record 0x08) or
/// `blob_missing` (record 0x09).
public struct SyncBlobWant: Hashable, Sendable, FixedSizeWireStructure {
    /// The exact encoded length.
    public static var wireLength: Int { SyncLimits.blobWantLength }

    /// The wanted blob.
    public var blobID: SyncBlobID
    /// The largest blob the asking side accepts.
    public var maximumBytes: UInt32

    /// Creates a want.
    public init(blobID: SyncBlobID, maximumBytes: UInt32) {
        self.blobID = blobID
        self.maximumBytes = maximumBytes
    }

    /// Appends the wire bytes.
    public func write(to writer: inout ByteWriter) {
        writer.write(bytes: blobID.bytes)
        writer.write(maximumBytes)
    }

    /// Reads the fields from a bounded cursor.
    public init(reading reader: inout ByteReader) throws(SyncWireError) {
        do {
            blobID = try SyncBlobID(reading: &reader)
            maximumBytes = try reader.readUInt32()
        } catch { throw .malformed(error) }
    }
}
