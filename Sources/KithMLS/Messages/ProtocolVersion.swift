/// The MLS protocol version (`uint16`, RFC 9420 §6).
public struct ProtocolVersion: RawRepresentable, Hashable, Sendable, TLSCodable {
    /// The code point.
    public var rawValue: UInt16
    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `mls10`, the only version defined by RFC 9420.
    public static let mls10 = ProtocolVersion(rawValue: 1)
    /// Encodes the `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
    /// Decodes the `uint16`.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
}
