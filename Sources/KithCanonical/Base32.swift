/// RFC 4648 base32, uppercase alphabet `A-Z2-7`, without padding: the text of the compact contact card, chosen
/// because every character is in the QR alphanumeric set (5.5 bits a character instead of 8 in byte mode) and
/// survives copy and paste and shells unquoted.
public enum Base32 {
    /// RFC 4648's alphabet, `A-Z2-7`.
    public static let rfc4648Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The unpadded text of `bytes` in a 32-character `alphabet` (RFC 4648's uppercase one by default; recovery keys
    /// use Crockford's), most significant bits first.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, alphabet: [UInt8] = rfc4648Alphabet) -> String where Bytes.Element == UInt8 {
        precondition(alphabet.count == 32, "a base32 alphabet has 32 characters")
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(of: bytes.count))
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = ((buffer << 8) | UInt32(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Packs 5-bit values (each 0...31), most significant bits first, into whole bytes; `trailingBits` holds the
    /// value of the bits left over (fewer than 8), which canonical text has zero.
    public static func pack(fiveBitValues values: [UInt8]) -> (bytes: [UInt8], trailingBits: UInt32) {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for value in values {
            buffer = ((buffer << 5) | UInt32(value & 0x1F)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return (out, buffer & ((1 << UInt32(bits)) - 1))
    }

    /// Characters needed for `byteCount` bytes.
    public static func encodedLength(of byteCount: Int) -> Int { (byteCount * 8 + 4) / 5 }

    /// Decodes canonical unpadded uppercase base32: no padding, no lowercase, no whitespace, unused trailing bits
    /// zero, and no length that no byte count produces.
    public static func decode(_ text: String) throws(Base32Error) -> [UInt8] {
        let utf8 = Array(text.utf8)
        let remainder = utf8.count % 8
        guard [0, 2, 4, 5, 7].contains(remainder) else { throw .invalidLength(utf8.count) }
        var values: [UInt8] = []
        values.reserveCapacity(utf8.count)
        for (offset, character) in utf8.enumerated() {
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(character - UInt8(ascii: "A"))
            case UInt8(ascii: "2")...UInt8(ascii: "7"): values.append(character - UInt8(ascii: "2") + 26)
            default: throw .invalidCharacter(offset: offset)
            }
        }
        let packed = pack(fiveBitValues: values)
        guard packed.trailingBits == 0 else { throw .nonZeroTrailingBits }
        return packed.bytes
    }
}

/// Why a text is not canonical base32.
public enum Base32Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// A length no byte count encodes to.
    case invalidLength(Int)
    /// A character outside `A-Z2-7` (lowercase and padding included).
    case invalidCharacter(offset: Int)
    /// The unused bits of the last character are not zero (a second spelling of the same bytes).
    case nonZeroTrailingBits

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidLength(let count): "base32 text of \(count) characters cannot encode whole bytes"
        case .invalidCharacter(let offset): "character at offset \(offset) is not in the base32 alphabet A-Z 2-7"
        case .nonZeroTrailingBits: "base32 text is not canonical (non-zero trailing bits)"
        }
    }
}
