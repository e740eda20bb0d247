/// The content of a handshake or application message before authentication (RFC 9420 §6).
public struct FramedContent: Hashable, Sendable, TLSCodable {
    /// The group identifier.
    public var groupID: [UInt8]
    /// The epoch the message belongs to.
    public var epoch: UInt64
    /// The sender.
    public var sender: Sender
    /// Application-chosen authenticated, unencrypted data.
    public var authenticatedData: [UInt8]
    /// The payload.
    public var body: FramedContentBody

    /// Creates framed content.
    public init(groupID: [UInt8], epoch: UInt64, sender: Sender, authenticatedData: [UInt8], body: FramedContentBody) {
        self.groupID = groupID
        self.epoch = epoch
        self.sender = sender
        self.authenticatedData = authenticatedData
        self.body = body
    }

    /// The content type of the payload.
    public var contentType: ContentType { body.contentType }

    /// Encodes the content.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        sender.encode(to: &writer)
        writer.writeOpaque(authenticatedData)
        contentType.encode(to: &writer)
        body.encode(to: &writer)
    }

    /// Decodes the content.
    public init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        sender = try Sender(from: &reader)
        authenticatedData = try reader.readOpaque()
        body = try FramedContentBody.decode(type: try ContentType(from: &reader), from: &reader)
    }

    /// The `FramedContentTBS` bytes signed by the sender; `context` is required for member and new-member-commit senders.
    public func toBeSigned(wireFormat: WireFormat, context: GroupContext?) -> [UInt8] {
        var writer = TLSWriter()
        ProtocolVersion.mls10.encode(to: &writer)
        wireFormat.encode(to: &writer)
        encode(to: &writer)
        if sender.signsGroupContext, let context { context.encode(to: &writer) }
        return writer.bytes
    }
}
