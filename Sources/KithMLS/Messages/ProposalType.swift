/// A proposal type code point (`uint16`, RFC 9420 §12.1, §17.4).
public struct ProposalType: RawRepresentable, Hashable, Sendable, TLSCodable {
    /// The code point.
    public var rawValue: UInt16
    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Add.
    public static let add = ProposalType(rawValue: 1)
    /// Update.
    public static let update = ProposalType(rawValue: 2)
    /// Remove.
    public static let remove = ProposalType(rawValue: 3)
    /// PreSharedKey.
    public static let psk = ProposalType(rawValue: 4)
    /// ReInit.
    public static let reinit = ProposalType(rawValue: 5)
    /// ExternalInit.
    public static let externalInit = ProposalType(rawValue: 6)
    /// GroupContextExtensions.
    public static let groupContextExtensions = ProposalType(rawValue: 7)
    /// Encodes the `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
    /// Decodes the `uint16`.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
}
