/// A string key that hashes and compares by its UTF-8 bytes, for duplicate detection in large objects.
struct UTF8ByteKey: Hashable {
    let string: String

    static func == (lhs: UTF8ByteKey, rhs: UTF8ByteKey) -> Bool { UTF8Bytes.equal(lhs.string, rhs.string) }

    func hash(into hasher: inout Hasher) { UTF8Bytes.hash(string, into: &hasher) }
}
