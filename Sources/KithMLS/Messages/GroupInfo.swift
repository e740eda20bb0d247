/// The signed description of a group that joiners need (RFC 9420 §12.4.3).
public struct GroupInfo: Hashable, Sendable, TLSCodable {
    /// The group context of the epoch.
    public var groupContext: GroupContext
    /// GroupInfo extensions (e.g. `ratchet_tree`, `external_pub`).
    public var extensions: [Extension]
    /// The epoch's confirmation tag.
    public var confirmationTag: [UInt8]
    /// The leaf index of the signer.
    public var signer: LeafIndex
    /// `SignWithLabel(., "GroupInfoTBS", GroupInfoTBS)`.
    public var signature: [UInt8]

    /// Creates a group info.
    public init(groupContext: GroupContext, extensions: [Extension], confirmationTag: [UInt8], signer: LeafIndex, signature: [UInt8]) {
        self.groupContext = groupContext
        self.extensions = extensions
        self.confirmationTag = confirmationTag
        self.signer = signer
        self.signature = signature
    }

    /// The `GroupInfoTBS` bytes.
    public var toBeSigned: [UInt8] {
        var writer = TLSWriter()
        groupContext.encode(to: &writer)
        writer.writeVector(extensions)
        writer.writeOpaque(confirmationTag)
        writer.writeUInt32(signer.value)
        return writer.bytes
    }

    /// Encodes the group info.
    public func encode(to writer: inout TLSWriter) {
        writer.writeBytes(toBeSigned)
        writer.writeOpaque(signature)
    }

    /// Decodes a group info.
    public init(from reader: inout TLSReader) throws {
        groupContext = try GroupContext(from: &reader)
        extensions = try reader.readVector(of: Extension.self)
        confirmationTag = try reader.readOpaque()
        signer = LeafIndex(try reader.readUInt32())
        signature = try reader.readOpaque()
    }

    /// Signs in place.
    public mutating func sign(suite: CipherSuite, signaturePrivateKey: [UInt8]) throws {
        signature = try suite.signWithLabel(privateKey: signaturePrivateKey, label: "GroupInfoTBS", content: toBeSigned)
    }

    /// True when the signature verifies under `signerKey`.
    public func verifySignature(suite: CipherSuite, signerKey: [UInt8]) -> Bool {
        suite.verifyWithLabel(publicKey: signerKey, label: "GroupInfoTBS", content: toBeSigned, signature: signature)
    }
}
