/// The wire format of an MLSMessage (`uint16`, RFC 9420 §6, §17.2).
public struct WireFormat: RawRepresentable, Hashable, Sendable, TLSCodable {
    /// The code point.
    public var rawValue: UInt16
    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `mls_public_message`.
    public static let publicMessage = WireFormat(rawValue: 1)
    /// `mls_private_message`.
    public static let privateMessage = WireFormat(rawValue: 2)
    /// `mls_welcome`.
    public static let welcome = WireFormat(rawValue: 3)
    /// `mls_group_info`.
    public static let groupInfo = WireFormat(rawValue: 4)
    /// `mls_key_package`.
    public static let keyPackage = WireFormat(rawValue: 5)
    /// Encodes the `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
    /// Decodes the `uint16`.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
}
