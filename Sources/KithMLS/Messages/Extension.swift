/// A typed opaque extension (RFC 9420 §13.4); unknown types pass through unchanged.
public struct Extension: Hashable, Sendable, TLSCodable {
    /// The extension type.
    public var type: ExtensionType
    /// The extension's encoded payload.
    public var data: [UInt8]

    /// Creates an extension.
    public init(type: ExtensionType, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// Encodes `ExtensionType extension_type; opaque extension_data<V>`.
    public func encode(to writer: inout TLSWriter) {
        type.encode(to: &writer)
        writer.writeOpaque(data)
    }

    /// Decodes an extension.
    public init(from reader: inout TLSReader) throws {
        type = try ExtensionType(from: &reader)
        data = try reader.readOpaque()
    }
}

extension Array where Element == Extension {
    /// The payload of the first extension of `type`, if present.
    public func data(of type: ExtensionType) -> [UInt8]? { first { $0.type == type }?.data }
}
