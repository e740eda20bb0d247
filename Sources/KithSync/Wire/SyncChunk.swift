import KithCanonical

/// One fragment of a message (spec 8.3: message_id 32 | chunk_index u16 | total_chunks u16 | data,
/// at least 37 bytes).
///
/// The decoder enforces the structural rules: `total_chunks` ≥ 1, `chunk_index` < `total_chunks`,
/// and at least one data byte. Cross-chunk rules are the job of ``MessageReassembler``.
public struct SyncChunk: Hashable, Sendable {
    /// The id of the whole message (SHA-256 of the envelope).
    public var messageID: SyncMessageID
    /// 0-based fragment number.
    public var chunkIndex: UInt16
    /// Number of fragments of the message.
    public var totalChunks: UInt16
    /// The fragment's bytes.
    public var data: [UInt8]

    /// Creates a chunk without checking it; ``encoded`` and the decoder apply the rules.
    public init(messageID: SyncMessageID, chunkIndex: UInt16, totalChunks: UInt16, data: [UInt8]) {
        self.messageID = messageID
        self.chunkIndex = chunkIndex
        self.totalChunks = totalChunks
        self.data = data
    }

    /// Encoded size: 36 + data.
    public var encodedLength: Int { SyncLimits.chunkHeaderLength + data.count }

    /// The wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: encodedLength)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout ByteWriter) {
        writer.write(bytes: messageID.bytes)
        writer.write(chunkIndex)
        writer.write(totalChunks)
        writer.write(bytes: data)
    }

    /// Decodes a whole chunk (every byte after the 36-byte header is data).
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader, length: bytes.count)
    }

    init(reading reader: inout ByteReader, length: Int) throws(SyncWireError) {
        guard length > SyncLimits.chunkHeaderLength else {
            if length == SyncLimits.chunkHeaderLength { throw .emptyChunkData }
            throw .malformed(.truncated(needed: SyncLimits.chunkHeaderLength + 1, available: length, offset: reader.offset))
        }
        do {
            messageID = try SyncMessageID(reading: &reader)
            chunkIndex = try reader.readUInt16()
            totalChunks = try reader.readUInt16()
            data = try reader.readBytes(length - SyncLimits.chunkHeaderLength)
        } catch { throw .malformed(error) }
        guard totalChunks > 0 else { throw .zeroTotalChunks }
        guard chunkIndex < totalChunks else { throw .chunkIndexOutOfRange(index: chunkIndex, total: totalChunks) }
    }
}
