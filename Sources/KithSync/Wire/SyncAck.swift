import KithCanonical

/// "Received and verified message" (spec 8.3, 33 bytes: message_id 32 | status u8).
public struct SyncAck: Hashable, Sendable, FixedSizeWireStructure {
    /// The exact encoded length.
    public static var wireLength: Int { SyncLimits.ackLength }

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

    /// Appends the wire bytes.
    public func write(to writer: inout ByteWriter) {
        writer.write(bytes: messageID.bytes)
        writer.write(status.rawValue)
    }

    /// Reads the fields from a bounded cursor.
    public init(reading reader: inout ByteReader) throws(SyncWireError) {
        let raw: UInt8
        do {
            messageID = try SyncMessageID(reading: &reader)
            raw = try reader.readUInt8()
        } catch { throw .malformed(error) }
        guard let status = Status(rawValue: raw) else { throw .invalidAckStatus(raw) }
        self.status = status
    }
}
