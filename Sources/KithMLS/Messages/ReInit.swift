/// The body of a ReInit proposal (RFC 9420 §12.1.5).
public struct ReInit: Hashable, Sendable, TLSCodable {
    /// The new group's identifier.
    public var groupID: [UInt8]
    /// The new group's protocol version.
    public var version: ProtocolVersion
    /// The new group's cipher suite.
    public var cipherSuite: CipherSuiteID
    /// The new group's GroupContext extensions.
    public var extensions: [Extension]

    /// Creates a ReInit body.
    public init(groupID: [UInt8], version: ProtocolVersion, cipherSuite: CipherSuiteID, extensions: [Extension]) {
        self.groupID = groupID
        self.version = version
        self.cipherSuite = cipherSuite
        self.extensions = extensions
    }

    /// Encodes the body.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeVector(extensions)
    }

    /// Decodes the body.
    public init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuiteID(from: &reader)
        extensions = try reader.readVector(of: Extension.self)
    }
}
