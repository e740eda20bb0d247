/// Byte-level helpers over the UTF-8 form of strings: equality, hashing and RFC 8785 key order.
///
/// Swift's `String ==` uses Unicode canonical equivalence, which Kith must never apply: two keys
/// are the same only when their UTF-8 bytes are identical.
enum UTF8Bytes {
    /// True when both strings have identical UTF-8 bytes.
    @inline(__always)
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let count = lhs.utf8.count
        guard count == rhs.utf8.count else { return false }
        return withBytes(lhs) { left in withBytes(rhs) { right in memcmpEqual(left, right) } }
    }

    /// Calls `body` with the contiguous UTF-8 bytes of `string`, copying only for bridged strings.
    @inline(__always)
    static func withBytes<Result>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = string
        return copy.withUTF8(body)
    }

    @inline(__always)
    private static func memcmpEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = left.count
        while index < count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    /// Feeds the UTF-8 bytes of `string` into `hasher`.
    static func hash(_ string: String, into hasher: inout Hasher) {
        withBytes(string) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }

    /// RFC 8785 member order: true when `lhs` sorts before `rhs` comparing UTF-16 code units.
    @inline(__always)
    static func utf16Less(_ lhs: String, _ rhs: String) -> Bool {
        withBytes(lhs) { left in withBytes(rhs) { right in utf16Less(left, right) } }
    }

    /// UTF-16 code unit order computed directly on UTF-8 bytes.
    ///
    /// UTF-8 byte order equals code point order. UTF-16 order differs only when a supplementary
    /// character (lead byte 0xF0…0xF4, encoded as surrogates 0xD800…0xDFFF) meets a BMP character
    /// U+E000…U+FFFF (lead byte 0xEE or 0xEF): the supplementary one sorts first. At the first
    /// differing byte both strings are either at a character boundary (both bytes are lead bytes)
    /// or inside characters with the same lead byte (same length, byte order is right).
    @inline(__always)
    static func utf16Less(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let a = left[index]
            let b = right[index]
            if a != b {
                if a >= 0xF0 && (b == 0xEE || b == 0xEF) { return true }
                if b >= 0xF0 && (a == 0xEE || a == 0xEF) { return false }
                return a < b
            }
            index += 1
        }
        return left.count < right.count
    }
}
