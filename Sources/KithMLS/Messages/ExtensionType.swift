/// An extension type code point (`uint16`, RFC 9420 §13.4, §17.3).
public struct ExtensionType: RawRepresentable, Hashable, Sendable, TLSCodable {
    /// The code point.
    public var rawValue: UInt16
    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `application_id` (leaf nodes).
    public static let applicationID = ExtensionType(rawValue: 1)
    /// `ratchet_tree` (GroupInfo).
    public static let ratchetTree = ExtensionType(rawValue: 2)
    /// `required_capabilities` (GroupContext).
    public static let requiredCapabilities = ExtensionType(rawValue: 3)
    /// `external_pub` (GroupInfo).
    public static let externalPub = ExtensionType(rawValue: 4)
    /// `external_senders` (GroupContext).
    public static let externalSenders = ExtensionType(rawValue: 5)
    /// Encodes the `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
    /// Decodes the `uint16`.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
}
