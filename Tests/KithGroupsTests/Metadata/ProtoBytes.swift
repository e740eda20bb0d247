/// Hand-built protobuf bytes for the tests: an encoder independent of SwiftProtobuf, so tests can write records
/// with unknown fields, malformed ids or any field order exactly as another client might.
enum ProtoBytes {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    static func key(_ number: Int, wireType: UInt8) -> [UInt8] {
        varint(UInt64(number) << 3 | UInt64(wireType))
    }

    /// A length-delimited field (wire type 2).
    static func field(_ number: Int, bytes: [UInt8]) -> [UInt8] {
        key(number, wireType: 2) + varint(UInt64(bytes.count)) + bytes
    }

    static func field(_ number: Int, string: String) -> [UInt8] {
        field(number, bytes: Array(string.utf8))
    }

    /// A varint field (wire type 0).
    static func field(_ number: Int, varint value: UInt64) -> [UInt8] {
        key(number, wireType: 0) + varint(value)
    }

    /// A 64-bit field (wire type 1), little-endian.
    static func field(_ number: Int, sfixed64 value: Int64) -> [UInt8] {
        let bits = UInt64(bitPattern: value)
        return key(number, wireType: 1) + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }

    /// A `ConversationProfile` entry with the given id, name and extra bytes.
    static func profile(id: [UInt8], name: String? = nil, image: String? = nil, extra: [UInt8] = []) -> [UInt8] {
        var body = field(1, bytes: id)
        if let name { body += field(2, string: name) }
        if let image { body += field(3, string: image) }
        return field(2, bytes: body + extra)
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs as a contiguous run.
    func containsRun(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
