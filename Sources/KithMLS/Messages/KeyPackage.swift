/// A pre-published offer to join groups (RFC 9420 §10).
public struct KeyPackage: Hashable, Sendable, TLSCodable {
    /// The protocol version.
    public var version: ProtocolVersion
    /// The cipher suite of the package.
    public var cipherSuite: CipherSuiteID
    /// The HPKE key that Welcome secrets are encrypted to.
    public var initKey: [UInt8]
    /// The leaf the member will occupy.
    public var leafNode: LeafNode
    /// KeyPackage extensions.
    public var extensions: [Extension]
    /// `SignWithLabel(., "KeyPackageTBS", KeyPackageTBS)`.
    public var signature: [UInt8]

    /// Creates a key package.
    public init(version: ProtocolVersion, cipherSuite: CipherSuiteID, initKey: [UInt8], leafNode: LeafNode,
                extensions: [Extension], signature: [UInt8]) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.initKey = initKey
        self.leafNode = leafNode
        self.extensions = extensions
        self.signature = signature
    }

    /// The `KeyPackageTBS` bytes.
    public var toBeSigned: [UInt8] {
        var writer = TLSWriter()
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(initKey)
        leafNode.encode(to: &writer)
        writer.writeVector(extensions)
        return writer.bytes
    }

    /// Encodes the key package.
    public func encode(to writer: inout TLSWriter) {
        writer.writeBytes(toBeSigned)
        writer.writeOpaque(signature)
    }

    /// Decodes a key package.
    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuiteID(from: &reader)
        initKey = try reader.readOpaque()
        leafNode = try LeafNode(from: &reader)
        extensions = try reader.readVector(of: Extension.self)
        signature = try reader.readOpaque()
    }

    /// `KeyPackageRef = RefHash("MLS 1.0 KeyPackage Reference", KeyPackage)` (RFC 9420 §5.2).
    public func reference(suite: CipherSuite) -> [UInt8] {
        suite.refHash(label: "MLS 1.0 KeyPackage Reference", value: tlsEncoded)
    }

    /// True when the package signature verifies under the leaf's signature key.
    public func verifySignature(suite: CipherSuite) -> Bool {
        suite.verifyWithLabel(publicKey: leafNode.signatureKey, label: "KeyPackageTBS", content: toBeSigned, signature: signature)
    }
}
