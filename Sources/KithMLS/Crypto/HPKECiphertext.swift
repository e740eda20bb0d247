/// An HPKE encapsulated key and ciphertext (RFC 9420 §5.1.3 `HPKECiphertext`).
public struct HPKECiphertext: TLSCodable, Hashable {
    /// The KEM output (`enc`).
    public var kemOutput: [UInt8]
    /// The AEAD ciphertext.
    public var ciphertext: [UInt8]

    /// Creates the pair.
    public init(kemOutput: [UInt8], ciphertext: [UInt8]) {
        self.kemOutput = kemOutput
        self.ciphertext = ciphertext
    }

    /// Encodes `opaque kem_output<V>; opaque ciphertext<V>`.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(kemOutput)
        writer.writeOpaque(ciphertext)
    }

    /// Decodes the pair.
    public init(from reader: inout TLSReader) throws {
        kemOutput = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }
}
