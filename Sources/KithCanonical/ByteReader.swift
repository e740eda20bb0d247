/// A bounded cursor over bytes: the one way Kith's binary decoders read input.
///
/// Every read checks the remaining length first and throws ``ByteReaderError`` instead of
/// trapping, so a truncated or hostile input can never crash a decoder.
public struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The offset of the next unread byte.
    public private(set) var offset: Int

    /// Creates a reader positioned at the first byte.
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
        self.offset = 0
    }

    /// How many bytes are left.
    public var remaining: Int { bytes.count - offset }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// Reads one byte.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian 16-bit integer.
    public mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(2))
    }

    /// Reads a big-endian 32-bit integer.
    public mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(4))
    }

    /// Reads a big-endian 64-bit integer.
    public mutating func readUInt64() throws(ByteReaderError) -> UInt64 {
        try readBigEndian(8)
    }

    /// Reads exactly `count` bytes.
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0 else { throw .truncated(needed: count, available: remaining, offset: offset) }
        try require(count)
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Reads everything that is left.
    public mutating func readRemaining() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// Throws unless every byte has been consumed.
    public func expectEnd() throws(ByteReaderError) {
        if remaining != 0 { throw .trailingBytes(count: remaining, offset: offset) }
    }

    private func require(_ count: Int) throws(ByteReaderError) {
        if remaining < count { throw .truncated(needed: count, available: remaining, offset: offset) }
    }

    private mutating func readBigEndian(_ width: Int) throws(ByteReaderError) -> UInt64 {
        try require(width)
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = (value << 8) | UInt64(bytes[index]) }
        offset += width
        return value
    }
}

/// Why a binary structure could not be read.
public enum ByteReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended early.
    case truncated(needed: Int, available: Int, offset: Int)
    /// Bytes were left over after a complete structure.
    case trailingBytes(count: Int, offset: Int)

    public var description: String {
        switch self {
        case .truncated(let needed, let available, let offset):
            "truncated input: needed \(needed) bytes at offset \(offset), only \(available) left"
        case .trailingBytes(let count, let offset):
            "\(count) unexpected trailing bytes at offset \(offset)"
        }
    }
}
