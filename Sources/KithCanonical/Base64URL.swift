/// Base64url without padding (RFC 4648 section 5), the only binary-to-text encoding in Kith's JSON.
///
/// Decoding is strict: padding, characters outside the URL-safe alphabet, impossible lengths and
/// non-zero unused trailing bits are all rejected, so every byte string has exactly one accepted
/// text form. Signatures and hashes therefore cannot be made malleable through their encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The same alphabet as static storage, read through a pointer in the encoding loop.
    private static let alphabetBytes: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
        return table
    }()

    /// The number of characters `encode` produces for `byteCount` bytes.
    public static func encodedLength(of byteCount: Int) -> Int {
        let remainder = byteCount % 3
        return (byteCount / 3) * 4 + (remainder == 0 ? 0 : remainder + 1)
    }

    /// Encodes bytes as unpadded base64url.
    ///
    /// Inlinable so that callers get a copy specialized for their sequence type (a digest, for one).
    @inlinable
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Encodes the bytes of a buffer (for example a digest's) as unpadded base64url.
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        let length = encodedLength(of: count)
        guard length > 0 else { return "" }
        let symbols = alphabetBytes.utf8Start
        return String(unsafeUninitializedCapacity: length) { output in
            var read = 0
            var written = 0
            while read + 3 <= count {
                let chunk = UInt32(bytes[read]) << 16 | UInt32(bytes[read + 1]) << 8 | UInt32(bytes[read + 2])
                output[written] = symbols[Int(chunk >> 18)]
                output[written + 1] = symbols[Int((chunk >> 12) & 0x3F)]
                output[written + 2] = symbols[Int((chunk >> 6) & 0x3F)]
                output[written + 3] = symbols[Int(chunk & 0x3F)]
                read += 3
                written += 4
            }
            switch count - read {
            case 1:
                let b0 = bytes[read]
                output[written] = symbols[Int(b0 >> 2)]
                output[written + 1] = symbols[Int((b0 & 0x03) << 4)]
                written += 2
            case 2:
                let b0 = bytes[read]
                let b1 = bytes[read + 1]
                output[written] = symbols[Int(b0 >> 2)]
                output[written + 1] = symbols[Int(((b0 & 0x03) << 4) | (b1 >> 4))]
                output[written + 2] = symbols[Int((b1 & 0x0F) << 2)]
                written += 3
            default:
                break
            }
            return written
        }
    }

    /// Decodes canonical unpadded base64url.
    ///
    /// - Parameter expectedLength: when given, the decoded length must be exactly this.
    /// - Throws: ``Base64URLError`` for padding, foreign characters, impossible lengths,
    ///   non-zero trailing bits, or a length other than `expectedLength`.
    public static func decode(_ text: String, expectedLength: Int? = nil) throws(Base64URLError) -> [UInt8] {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(Base64URLError) -> [UInt8] in try decode(buffer: buffer, expectedLength: expectedLength) }
        }.get()
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
        try text.withUnsafeBufferPointer { (buffer) throws(Base64URLError) -> [UInt8] in
            try decode(buffer: buffer, expectedLength: expectedLength)
        }
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>, expectedLength: Int?) throws(Base64URLError) -> [UInt8] {
        let remainder = text.count % 4
        if remainder == 1 { throw .invalidLength(text.count) }
        if let expectedLength, encodedLength(of: expectedLength) != text.count {
            throw .wrongDecodedLength(expected: expectedLength, actualCharacters: text.count)
        }
        let capacity = text.count * 3 / 4
        var failure: Base64URLError?
        let output = reverse.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                var written = 0
                for offset in 0..<text.count {
                    let symbol = text[offset]
                    let value = table[Int(symbol)]
                    if value == 0xFF {
                        failure = symbol == UInt8(ascii: "=") ? .padding(offset: offset) : .invalidCharacter(offset: offset)
                        break
                    }
                    accumulator = (accumulator << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                        accumulator &= (1 << bits) - 1
                    }
                }
                if failure == nil, accumulator != 0 { failure = .nonCanonicalTrailingBits }
                initialized = written
            }
        }
        if let failure { throw failure }
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
