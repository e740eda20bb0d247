/// A member's leaf in the ratchet tree (RFC 9420 §7.2).
public struct LeafNode: Hashable, Sendable, TLSCodable {
    /// The HPKE public key of the leaf.
    public var encryptionKey: [UInt8]
    /// The signature public key of the member.
    public var signatureKey: [UInt8]
    /// The member's credential.
    public var credential: Credential
    /// What the member supports.
    public var capabilities: Capabilities
    /// Where the leaf came from.
    public var source: LeafNodeSource
    /// Leaf extensions.
    public var extensions: [Extension]
    /// `SignWithLabel(., "LeafNodeTBS", LeafNodeTBS)`.
    public var signature: [UInt8]

    /// Creates a leaf node.
    public init(encryptionKey: [UInt8], signatureKey: [UInt8], credential: Credential, capabilities: Capabilities,
                source: LeafNodeSource, extensions: [Extension], signature: [UInt8]) {
        self.encryptionKey = encryptionKey
        self.signatureKey = signatureKey
        self.credential = credential
        self.capabilities = capabilities
        self.source = source
        self.extensions = extensions
        self.signature = signature
    }

    private func encodeContent(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(signatureKey)
        credential.encode(to: &writer)
        capabilities.encode(to: &writer)
        source.encode(to: &writer)
        writer.writeVector(extensions)
    }

    /// Encodes the leaf node with its signature.
    public func encode(to writer: inout TLSWriter) {
        encodeContent(to: &writer)
        writer.writeOpaque(signature)
    }

    /// Decodes a leaf node.
    public init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        signatureKey = try reader.readOpaque()
        credential = try Credential(from: &reader)
        capabilities = try Capabilities(from: &reader)
        source = try LeafNodeSource(from: &reader)
        extensions = try reader.readVector(of: Extension.self)
        signature = try reader.readOpaque()
    }

    /// The `LeafNodeTBS` bytes; update and commit leaves are bound to the group and leaf position.
    public func toBeSigned(groupID: [UInt8], leafIndex: LeafIndex) -> [UInt8] {
        var writer = TLSWriter()
        encodeContent(to: &writer)
        switch source {
        case .keyPackage: break
        case .update, .commit:
            writer.writeOpaque(groupID)
            writer.writeUInt32(leafIndex.value)
        }
        return writer.bytes
    }

    /// Signs the leaf in place with the member's signature private key.
    public mutating func sign(suite: CipherSuite, signaturePrivateKey: [UInt8], groupID: [UInt8], leafIndex: LeafIndex) throws {
        signature = try suite.signWithLabel(privateKey: signaturePrivateKey, label: "LeafNodeTBS",
                                            content: toBeSigned(groupID: groupID, leafIndex: leafIndex))
    }

    /// True when the leaf's signature verifies under its own signature key.
    public func verifySignature(suite: CipherSuite, groupID: [UInt8], leafIndex: LeafIndex) -> Bool {
        suite.verifyWithLabel(publicKey: signatureKey, label: "LeafNodeTBS",
                              content: toBeSigned(groupID: groupID, leafIndex: leafIndex), signature: signature)
    }
}
