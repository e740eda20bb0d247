/// The `required_capabilities` GroupContext extension (RFC 9420 §11.1).
public struct RequiredCapabilities: Hashable, Sendable, TLSCodable {
    /// Extension types every member must support.
    public var extensionTypes: [ExtensionType]
    /// Proposal types every member must support.
    public var proposalTypes: [ProposalType]
    /// Credential types every member must support.
    public var credentialTypes: [CredentialType]

    /// Creates the requirement.
    public init(extensionTypes: [ExtensionType], proposalTypes: [ProposalType], credentialTypes: [CredentialType]) {
        self.extensionTypes = extensionTypes
        self.proposalTypes = proposalTypes
        self.credentialTypes = credentialTypes
    }

    /// Encodes the three vectors.
    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(extensionTypes)
        writer.writeVector(proposalTypes)
        writer.writeVector(credentialTypes)
    }

    /// Decodes the three vectors.
    public init(from reader: inout TLSReader) throws {
        extensionTypes = try reader.readVector(of: ExtensionType.self)
        proposalTypes = try reader.readVector(of: ProposalType.self)
        credentialTypes = try reader.readVector(of: CredentialType.self)
    }

    /// The extension carrying this requirement.
    public var asExtension: Extension { Extension(type: .requiredCapabilities, data: tlsEncoded) }
}
