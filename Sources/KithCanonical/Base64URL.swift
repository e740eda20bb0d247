/// Base64url without padding (RFC 4648 section 5), the only binary-to-text encoding in Kith's JSON.
///
/// Decoding is strict: padding, characters outside the URL-safe alphabet, impossible lengths and
/// non-zero unused trailing bits are all rejected, so every byte string has exactly one accepted
/// text form. Signatures and hashes therefore cannot be made malleable through their encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
        return table
    }()

    /// The number of characters `encode` produces for `byteCount` bytes.
    public static func encodedLength(of byteCount: Int) -> Int {
        (byteCount / 3) * 4 + [0, 2, 3][byteCount % 3]
    }

    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let alphabet = Self.alphabet
        var output = [UInt8]()
        output.reserveCapacity(encodedLength(of: bytes.underestimatedCount))
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = b1 == nil ? nil : iterator.next()
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int(((b0 & 0x03) << 4) | ((b1 ?? 0) >> 4))])
            if let b1 {
                output.append(alphabet[Int(((b1 & 0x0F) << 2) | ((b2 ?? 0) >> 6))])
            }
            if let b2 {
                output.append(alphabet[Int(b2 & 0x3F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64url.
    ///
    /// - Parameter expectedLength: when given, the decoded length must be exactly this.
    /// - Throws: ``Base64URLError`` for padding, foreign characters, impossible lengths,
    ///   non-zero trailing bits, or a length other than `expectedLength`.
    public static func decode(_ text: String, expectedLength: Int? = nil) throws(Base64URLError) -> [UInt8] {
        try decode(utf8: Array(text.utf8), expectedLength: expectedLength)
    }

    /// True when `text` is canonical unpadded base64url (checked without decoding into a buffer).
    public static func isCanonical(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isCanonical(buffer: $0) }
    }

    /// True when `text` is canonical unpadded base64url (checked without decoding into a buffer).
    public static func isCanonical<Text: Collection>(utf8 text: Text) -> Bool where Text.Element == UInt8 {
        if let answer = text.withContiguousStorageIfAvailable({ isCanonical(buffer: $0) }) { return answer }
        return Array(text).withUnsafeBufferPointer { isCanonical(buffer: $0) }
    }

    private static func isCanonical(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = buffer.count
        guard count % 4 != 1 else { return false }
        return reverse.withUnsafeBufferPointer { table -> Bool in
            var last: UInt8 = 0
            var invalid: UInt8 = 0
            for symbol in buffer {
                last = table[Int(symbol)]
                invalid |= last & 0x80
            }
            guard invalid == 0 else { return false }
            switch count % 4 {
            case 2: return last & 0x0F == 0
            case 3: return last & 0x03 == 0
            default: return true
            }
        }
    }

    /// Decodes canonical unpadded base64url given as UTF-8 bytes.
    public static func decode(utf8 text: [UInt8], expectedLength: Int? = nil) throws(Base64URLError) -> [UInt8] {
        let remainder = text.count % 4
        if remainder == 1 { throw .invalidLength(text.count) }
        if let expectedLength, encodedLength(of: expectedLength) != text.count {
            throw .wrongDecodedLength(expected: expectedLength, actualCharacters: text.count)
        }
        let table = reverse
        var output = [UInt8]()
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        var offset = 0
        for symbol in text {
            let value = table[Int(symbol)]
            if value == 0xFF {
                if symbol == UInt8(ascii: "=") { throw .padding(offset: offset) }
                throw .invalidCharacter(offset: offset)
            }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
                accumulator &= (1 << bits) - 1
            }
            offset += 1
        }
        if accumulator != 0 { throw .nonCanonicalTrailingBits }
        return output
    }
}

/// Why a base64url string was rejected.
public enum Base64URLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `=` padding character was found; Kith never pads.
    case padding(offset: Int)
    /// A character outside `A-Z a-z 0-9 - _` was found.
    case invalidCharacter(offset: Int)
    /// No byte string encodes to this many characters.
    case invalidLength(Int)
    /// The unused low bits of the last character are not zero (a second spelling of the same bytes).
    case nonCanonicalTrailingBits
    /// The value decodes to a different number of bytes than the field requires.
    case wrongDecodedLength(expected: Int, actualCharacters: Int)

    public var description: String {
        switch self {
        case .padding(let offset): "base64url must not be padded ('=' at offset \(offset))"
        case .invalidCharacter(let offset): "invalid base64url character at offset \(offset)"
        case .invalidLength(let count): "\(count) characters is not a possible base64url length"
        case .nonCanonicalTrailingBits: "non-canonical base64url: unused trailing bits are not zero"
        case .wrongDecodedLength(let expected, let actual):
            "expected base64url of \(expected) bytes (\(Base64URL.encodedLength(of: expected)) characters), got \(actual) characters"
        }
    }
}
