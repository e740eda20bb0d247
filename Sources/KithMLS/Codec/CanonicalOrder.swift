/// The ordering that makes locally stored maps canonical (a serialized ``GroupState``): entries are written by ascending
/// key and read back only in that order, so one state has exactly one encoding and re-serializes to identical bytes.
enum CanonicalOrder {
    /// Byte strings ordered lexicographically (a shorter prefix first).
    static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { lhs.lexicographicallyPrecedes(rhs) }

    /// Throws ``MLSCodecError/invalidValue(field:reason:)`` unless `keys` are strictly ascending under `less`
    /// (which also rules out duplicates).
    static func checkAscending<Key>(_ keys: [Key], field: String, by less: (Key, Key) -> Bool) throws {
        for index in keys.indices.dropFirst() where !less(keys[index - 1], keys[index]) {
            throw MLSCodecError.invalidValue(field: field, reason: "entries are not in strictly ascending order")
        }
    }

    /// ``checkAscending(_:field:by:)`` for comparable keys.
    static func checkAscending<Key: Comparable>(_ keys: [Key], field: String) throws {
        try checkAscending(keys, field: field, by: <)
    }

    /// ``checkAscending(_:field:by:)`` for byte-string keys.
    static func checkAscending(_ keys: [[UInt8]], field: String) throws {
        try checkAscending(keys, field: field, by: precedes)
    }
}
