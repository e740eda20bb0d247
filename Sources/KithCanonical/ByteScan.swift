/// Word-at-a-time (SWAR) scanning used by the JSON hot loops: tests eight bytes per step for the
/// few byte values that end a plain run inside a string.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quotes: UInt64 = 0x2222_2222_2222_2222
    private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
    private static let spaces: UInt64 = 0x2020_2020_2020_2020

    /// Nonzero when some byte of `word` is zero.
    @inline(__always)
    private static func zeroByteMask(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

    /// Nonzero when some byte of `word` is a control character, `"` or `\`.
    @inline(__always)
    static func hasEscapeByte(_ word: UInt64) -> Bool {
        let control = (word &- spaces) & ~word & highBits
        return (control | zeroByteMask(word ^ quotes) | zeroByteMask(word ^ backslashes)) != 0
    }

    /// Nonzero when some byte of `word` is a control character, `"`, `\` or non-ASCII.
    @inline(__always)
    static func hasEscapeOrNonASCIIByte(_ word: UInt64) -> Bool {
        let control = (word &- spaces) & ~word & highBits
        return (control | zeroByteMask(word ^ quotes) | zeroByteMask(word ^ backslashes) | (word & highBits)) != 0
    }

    /// Index of the first byte at or after `start` that is a control character, `"` or `\`
    /// (or non-ASCII when `stopAtNonASCII`), or `buffer.count` when there is none.
    @inline(__always)
    static func firstSpecialByte(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, stopAtNonASCII: Bool) -> Int {
        var index = start
        let count = buffer.count
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let stop = stopAtNonASCII ? hasEscapeOrNonASCIIByte(word) : hasEscapeByte(word)
                if stop { break }
                index += 8
            }
        }
        while index < count {
            let byte = buffer[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || (stopAtNonASCII && byte >= 0x80) { return index }
            index += 1
        }
        return count
    }
}
