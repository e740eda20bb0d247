/// What a client supports (RFC 9420 §7.2).
public struct Capabilities: Hashable, Sendable, TLSCodable {
    /// Supported protocol versions.
    public var versions: [ProtocolVersion]
    /// Supported cipher suites.
    public var cipherSuites: [CipherSuiteID]
    /// Supported non-default extension types.
    public var extensions: [ExtensionType]
    /// Supported non-default proposal types.
    public var proposals: [ProposalType]
    /// Supported credential types.
    public var credentials: [CredentialType]

    /// Creates a capabilities set.
    public init(versions: [ProtocolVersion], cipherSuites: [CipherSuiteID], extensions: [ExtensionType],
                proposals: [ProposalType], credentials: [CredentialType]) {
        self.versions = versions
        self.cipherSuites = cipherSuites
        self.extensions = extensions
        self.proposals = proposals
        self.credentials = credentials
    }

    /// Encodes the five vectors.
    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(versions)
        writer.writeVector(cipherSuites)
        writer.writeVector(extensions)
        writer.writeVector(proposals)
        writer.writeVector(credentials)
    }

    /// Decodes the five vectors.
    public init(from reader: inout TLSReader) throws {
        versions = try reader.readVector(of: ProtocolVersion.self)
        cipherSuites = try reader.readVector(of: CipherSuiteID.self)
        extensions = try reader.readVector(of: ExtensionType.self)
        proposals = try reader.readVector(of: ProposalType.self)
        credentials = try reader.readVector(of: CredentialType.self)
    }
}
