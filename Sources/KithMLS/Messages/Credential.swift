/// A member credential (RFC 9420 §5.3).
public enum Credential: Hashable, Sendable, TLSCodable {
    /// A basic credential carrying an application-defined identity.
    case basic(identity: [UInt8])
    /// An X.509 chain, leaf certificate first (each entry DER).
    case x509(certificates: [[UInt8]])

    /// The credential type.
    public var type: CredentialType {
        switch self {
        case .basic: .basic
        case .x509: .x509
        }
    }

    /// Encodes the credential.
    public func encode(to writer: inout TLSWriter) {
        type.encode(to: &writer)
        switch self {
        case .basic(let identity): writer.writeOpaque(identity)
        case .x509(let certificates): writer.writeVector { inner in for cert in certificates { inner.writeOpaque(cert) } }
        }
    }

    /// Decodes a credential; unknown credential types cannot be parsed and throw.
    public init(from reader: inout TLSReader) throws {
        let type = try CredentialType(from: &reader)
        switch type {
        case .basic: self = .basic(identity: try reader.readOpaque())
        case .x509: self = .x509(certificates: try reader.readVector { try $0.readOpaque() })
        default: throw MLSCodecError.unknownValue(field: "CredentialType", value: UInt64(type.rawValue))
        }
    }
}
