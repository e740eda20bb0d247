/// Group secrets encrypted to one new member's KeyPackage (RFC 9420 §12.4.3.1).
public struct EncryptedGroupSecrets: Hashable, Sendable, TLSCodable {
    /// The `KeyPackageRef` of the new member.
    public var newMember: [UInt8]
    /// `EncryptWithLabel(init_key, "Welcome", encrypted_group_info, GroupSecrets)`.
    public var encryptedGroupSecrets: HPKECiphertext

    /// Creates an entry.
    public init(newMember: [UInt8], encryptedGroupSecrets: HPKECiphertext) {
        self.newMember = newMember
        self.encryptedGroupSecrets = encryptedGroupSecrets
    }

    /// Encodes the entry.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(newMember)
        encryptedGroupSecrets.encode(to: &writer)
    }

    /// Decodes the entry.
    public init(from reader: inout TLSReader) throws {
        newMember = try reader.readOpaque()
        encryptedGroupSecrets = try HPKECiphertext(from: &reader)
    }
}

/// The message that lets new members join an epoch (RFC 9420 §12.4.3.1).
public struct Welcome: Hashable, Sendable, TLSCodable {
    /// The group's cipher suite.
    public var cipherSuite: CipherSuiteID
    /// One entry per new member.
    public var secrets: [EncryptedGroupSecrets]
    /// The GroupInfo encrypted under the welcome key and nonce.
    public var encryptedGroupInfo: [UInt8]

    /// Creates a welcome.
    public init(cipherSuite: CipherSuiteID, secrets: [EncryptedGroupSecrets], encryptedGroupInfo: [UInt8]) {
        self.cipherSuite = cipherSuite
        self.secrets = secrets
        self.encryptedGroupInfo = encryptedGroupInfo
    }

    /// Encodes the welcome.
    public func encode(to writer: inout TLSWriter) {
        cipherSuite.encode(to: &writer)
        writer.writeVector(secrets)
        writer.writeOpaque(encryptedGroupInfo)
    }

    /// Decodes the welcome.
    public init(from reader: inout TLSReader) throws {
        cipherSuite = try CipherSuiteID(from: &reader)
        secrets = try reader.readVector(of: EncryptedGroupSecrets.self)
        encryptedGroupInfo = try reader.readOpaque()
    }
}
