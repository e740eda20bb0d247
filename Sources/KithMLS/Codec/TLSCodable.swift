/// A value with a TLS presentation-language encoding.
public protocol TLSEncodable: Sendable {
    /// Appends the value's encoding to `writer`.
    func encode(to writer: inout TLSWriter)
}

/// A value that can be decoded from TLS presentation-language bytes.
public protocol TLSDecodable: Sendable {
    /// Decodes the value from `reader`, throwing ``MLSCodecError`` on malformed input.
    init(from reader: inout TLSReader) throws
}

/// A value that can be both encoded and decoded.
public typealias TLSCodable = TLSEncodable & TLSDecodable

extension TLSEncodable {
    /// The value's complete encoding.
    public var tlsEncoded: [UInt8] {
        var writer = TLSWriter()
        encode(to: &writer)
        return writer.bytes
    }
}

extension TLSDecodable {
    /// Decodes a value that must occupy all of `bytes`.
    public init(tlsEncoded bytes: [UInt8]) throws {
        var reader = TLSReader(bytes)
        try self.init(from: &reader)
        try reader.expectEnd()
    }
}
