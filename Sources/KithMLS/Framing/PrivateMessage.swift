/// An encrypted handshake or application message (RFC 9420 §6.3).
public struct PrivateMessage: Hashable, Sendable, TLSCodable {
    /// The group identifier.
    public var groupID: [UInt8]
    /// The epoch.
    public var epoch: UInt64
    /// The type of the encrypted content.
    public var contentType: ContentType
    /// Application-chosen authenticated, unencrypted data.
    public var authenticatedData: [UInt8]
    /// The AEAD-encrypted `SenderData`.
    public var encryptedSenderData: [UInt8]
    /// The AEAD-encrypted `PrivateMessageContent`.
    public var ciphertext: [UInt8]

    /// Creates a private message.
    public init(groupID: [UInt8], epoch: UInt64, contentType: ContentType, authenticatedData: [UInt8],
                encryptedSenderData: [UInt8], ciphertext: [UInt8]) {
        self.groupID = groupID
        self.epoch = epoch
        self.contentType = contentType
        self.authenticatedData = authenticatedData
        self.encryptedSenderData = encryptedSenderData
        self.ciphertext = ciphertext
    }

    /// Encodes the message.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        contentType.encode(to: &writer)
        writer.writeOpaque(authenticatedData)
        writer.writeOpaque(encryptedSenderData)
        writer.writeOpaque(ciphertext)
    }

    /// Decodes the message.
    public init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        contentType = try ContentType(from: &reader)
        authenticatedData = try reader.readOpaque()
        encryptedSenderData = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }

    /// The `PrivateContentAAD` bytes.
    var contentAAD: [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        contentType.encode(to: &writer)
        writer.writeOpaque(authenticatedData)
        return writer.bytes
    }

    /// The `SenderDataAAD` bytes.
    var senderDataAAD: [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        contentType.encode(to: &writer)
        return writer.bytes
    }
}
