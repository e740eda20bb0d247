/// Bounded reads for locally stored structures (a serialized ``GroupState``), where counts and lengths have known limits.
extension TLSReader {
    /// Reads a vector of at most `limit` elements, each decoded by `element`.
    ///
    /// Throws ``MLSCodecError/invalidValue(field:reason:)`` naming `field` once the vector holds more than `limit` elements.
    mutating func readVector<T>(atMost limit: Int, field: String, _ element: (inout TLSReader) throws -> T) throws -> [T] {
        var sub = try readVectorReader()
        var out: [T] = []
        while !sub.isAtEnd {
            guard out.count < limit else { throw MLSCodecError.invalidValue(field: field, reason: "more than \(limit) entries") }
            out.append(try element(&sub))
        }
        return out
    }

    /// Reads an `opaque<V>` that must be exactly `length` bytes long.
    mutating func readOpaque(exactly length: Int, field: String) throws -> [UInt8] {
        let value = try readOpaque()
        guard value.count == length else { throw MLSCodecError.invalidLength(field: field, expected: length, actual: value.count) }
        return value
    }

    /// Reads an `opaque<V>` of at most `limit` bytes.
    mutating func readOpaque(atMost limit: Int, field: String) throws -> [UInt8] {
        let value = try readOpaque()
        guard value.count <= limit else {
            throw MLSCodecError.invalidValue(field: field, reason: "\(value.count) bytes exceed the limit of \(limit)")
        }
        return value
    }
}
