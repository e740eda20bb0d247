import KithMLS
/// A `deserialization.json` case: a variable-length vector header and the length it encodes (RFC 9420 §2.1.2).
public struct DeserializationVector: ConformanceVector {
    /// `deserialization.json`.
    public static let fileName = "deserialization.json"
    let vlbytes_header: HexString
    let length: Int

    /// Decodes the header, compares the length, and re-encodes it byte for byte.
    public func check() -> VectorOutcome {
        Conformance.run {
            var reader = TLSReader(vlbytes_header.bytes)
            let decoded = try reader.readVarInt()
            try reader.expectEnd()
            try Conformance.expectEqual("length", decoded, length)
            var writer = TLSWriter()
            writer.writeVarInt(length)
            try Conformance.expectEqual("re-encoded header", writer.bytes, vlbytes_header.bytes)
        }
    }
}
