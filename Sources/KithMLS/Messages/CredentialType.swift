/// A credential type code point (`uint16`, RFC 9420 §5.3).
public struct CredentialType: RawRepresentable, Hashable, Sendable, TLSCodable {
    /// The code point.
    public var rawValue: UInt16
    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A basic credential (an opaque identity).
    public static let basic = CredentialType(rawValue: 1)
    /// An X.509 certificate chain.
    public static let x509 = CredentialType(rawValue: 2)
    /// Encodes the `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
    /// Decodes the `uint16`.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
}
