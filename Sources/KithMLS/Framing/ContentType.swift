/// The type of content in a framed message (`uint8`, RFC 9420 §6).
public enum ContentType: UInt8, Hashable, Sendable, TLSCodable {
    /// Application data.
    case application = 1
    /// A proposal.
    case proposal = 2
    /// A commit.
    case commit = 3

    /// Encodes the `uint8`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt8(rawValue) }

    /// Decodes the `uint8`, rejecting unknown values.
    public init(from reader: inout TLSReader) throws {
        let raw = try reader.readUInt8()
        guard let value = ContentType(rawValue: raw) else { throw MLSCodecError.unknownValue(field: "ContentType", value: UInt64(raw)) }
        self = value
    }
}
