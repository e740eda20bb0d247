import KithCanonical

/// "Received and verified message" (spec 8.3, 33 bytes: message_id 32 | status u8).
public struct SyncAck: Hashable, Sendable {
    /// The verdict carried in a ``SyncAck``.
    public enum Status: UInt8, Sendable {
        /// 0x00: the message was received and verified.
        case ok = 0x00
        /// 0x01: the message failed signature or chain verification.
        case invalid = 0x01
    }

    /// The message being acknowledged.
    public var messageID: SyncMessageID
    /// The receiver's verdict.
    public var status: Status

    /// Creates an acknowledgement.
    public init(messageID: SyncMessageID, status: Status) {
        self.messageID = messageID
        self.status = status
    }

    /// The 33 wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: SyncLimits.ackLength)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout ByteWriter) {
        writer.write(bytes: messageID.bytes)
        writer.write(status.rawValue)
    }

    /// Decodes exactly 33 bytes.
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader)
        do { try reader.expectEnd() } catch { throw .malformed(error) }
    }

    init(reading reader: inout ByteReader) throws(SyncWireError) {
        let raw: UInt8
        do {
            messageID = try SyncMessageID(reading: &reader)
            raw = try reader.readUInt8()
        } catch { throw .malformed(error) }
        guard let status = Status(rawValue: raw) else { throw .invalidAckStatus(raw) }
        self.status = status
    }
}
