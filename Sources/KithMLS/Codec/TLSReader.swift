/// A bounded big-endian cursor over TLS presentation-language bytes (RFC 9420 §2.1).
///
/// Every read checks the remaining length first and throws ``MLSCodecError`` instead of trapping.
/// Variable-length vectors are read through a nested reader limited to the vector's bytes.
public struct TLSReader: Sendable {
    private let bytes: [UInt8]
    private let end: Int
    /// Absolute offset of the next byte to read.
    public private(set) var offset: Int

    /// Creates a reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
        self.end = bytes.count
    }

    private init(bytes: [UInt8], offset: Int, end: Int) {
        self.bytes = bytes
        self.offset = offset
        self.end = end
    }

    /// Number of bytes not read yet.
    public var remaining: Int { end - offset }

    /// True once every byte has been read.
    public var isAtEnd: Bool { offset >= end }

    /// Throws ``MLSCodecError/trailingBytes(count:)`` unless the input is fully consumed.
    public func expectEnd() throws {
        guard isAtEnd else { throw MLSCodecError.trailingBytes(count: remaining) }
    }

    /// Reads exactly `count` bytes.
    public mutating func readBytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw MLSCodecError.truncated(offset: offset, needed: count - remaining)
        }
        let out = Array(bytes[offset..<(offset + count)])
        offset += count
        return out
    }

    /// Reads one byte.
    public mutating func readUInt8() throws -> UInt8 {
        guard remaining >= 1 else { throw MLSCodecError.truncated(offset: offset, needed: 1) }
        let value = bytes[offset]
        offset += 1
        return value
    }

    /// Reads a big-endian unsigned integer of `width` bytes.
    private mutating func readInteger(width: Int) throws -> UInt64 {
        guard remaining >= width else {
            throw MLSCodecError.truncated(offset: offset, needed: width - remaining)
        }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }

    /// Reads a big-endian `uint16`.
    public mutating func readUInt16() throws -> UInt16 { UInt16(truncatingIfNeeded: try readInteger(width: 2)) }

    /// Reads a big-endian `uint32`.
    public mutating func readUInt32() throws -> UInt32 { UInt32(truncatingIfNeeded: try readInteger(width: 4)) }

    /// Reads a big-endian `uint64`.
    public mutating func readUInt64() throws -> UInt64 { try readInteger(width: 8) }

    /// Reads a variable-length integer (RFC 9420 §2.1.2), enforcing minimal encoding and rejecting the `0b11` prefix.
    public mutating func readVarInt() throws -> Int {
        let start = offset
        let first = try readUInt8()
        let prefix = first >> 6
        var value = UInt32(first & 0x3F)
        let extra: Int
        switch prefix {
        case 0: extra = 0
        case 1: extra = 1
        case 2: extra = 3
        default:
            offset = start
            throw MLSCodecError.invalidVarIntPrefix(offset: start)
        }
        for _ in 0..<extra { value = value << 8 | UInt32(try readUInt8()) }
        let minimal: Bool
        switch prefix {
        case 1: minimal = value >= 64
        case 2: minimal = value >= 16384
        default: minimal = true
        }
        guard minimal else {
            offset = start
            throw MLSCodecError.nonMinimalVarInt(offset: start)
        }
        return Int(value)
    }

    /// Reads an `opaque data<V>` vector and returns its bytes.
    public mutating func readOpaque() throws -> [UInt8] {
        let length = try readVarInt()
        return try readBytes(length)
    }

    /// Reads a vector header and returns a reader bounded to the vector's bytes, advancing past them.
    public mutating func readVectorReader() throws -> TLSReader {
        let length = try readVarInt()
        guard length <= remaining else {
            throw MLSCodecError.truncated(offset: offset, needed: length - remaining)
        }
        let sub = TLSReader(bytes: bytes, offset: offset, end: offset + length)
        offset += length
        return sub
    }

    /// Reads a vector of elements, each decoded by `element` until the vector's bytes are consumed.
    public mutating func readVector<T>(_ element: (inout TLSReader) throws -> T) throws -> [T] {
        var sub = try readVectorReader()
        var out: [T] = []
        while !sub.isAtEnd { out.append(try element(&sub)) }
        return out
    }

    /// Reads a vector of ``TLSDecodable`` elements.
    public mutating func readVector<T: TLSDecodable>(of type: T.Type) throws -> [T] {
        try readVector { try T(from: &$0) }
    }

    /// Reads an `optional<T>` (presence byte 0 or 1, then the value).
    public mutating func readOptional<T>(_ element: (inout TLSReader) throws -> T) throws -> T? {
        let start = offset
        let flag = try readUInt8()
        switch flag {
        case 0: return nil
        case 1: return try element(&self)
        default: throw MLSCodecError.invalidOptionalFlag(offset: start, value: flag)
        }
    }

    /// Reads an optional ``TLSDecodable`` value.
    public mutating func readOptional<T: TLSDecodable>(of type: T.Type) throws -> T? {
        try readOptional { try T(from: &$0) }
    }
}
