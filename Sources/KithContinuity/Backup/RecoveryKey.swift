import Crypto
import KithCanonical

/// The high-entropy key a backup is sealed under when no passphrase is set: 32 random bytes, shown once as 64
/// characters of Crockford base32 in 16 groups of 4 (`0-9 A-Z` without I, L, O, U), the last 13 characters
/// carrying an 8-byte checksum (the first 8 bytes of SHA-256 of the key) so a mistyped key is caught before any
/// file is opened.
public struct RecoveryKey: Sendable, Equatable {
    /// Key bytes.
    public static let byteCount = 32
    /// Checksum bytes appended before encoding.
    public static let checksumCount = 8
    /// Characters in the text form.
    public static let characterCount = 64
    /// Characters per group when shown.
    public static let groupSize = 4

    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes; throws for any other length.
    public init(bytes: [UInt8]) throws(BackupError) {
        guard bytes.count == Self.byteCount else { throw .invalidRecoveryKey("a key has \(Self.byteCount) bytes, not \(bytes.count)") }
        self.bytes = bytes
    }

    /// A fresh random key from the system generator.
    public static func generate() -> RecoveryKey {
        let key = SymmetricKey(size: .bits256)
        // 32 bytes by construction.
        return RecoveryKey(unchecked: key.withUnsafeBytes { Array($0) })
    }

    /// Wraps bytes whose count the caller guarantees is `byteCount`.
    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The 64 characters without spaces.
    public var compactText: String {
        let checksum = Array(SHA256.hash(data: bytes).prefix(Self.checksumCount))
        return Base32.encode(bytes + checksum, alphabet: Self.alphabet)
    }

    /// The 64 characters in 16 groups of 4 separated by spaces, for reading aloud.
    public var groupedText: String {
        let characters = Array(compactText)
        return stride(from: 0, to: characters.count, by: Self.groupSize)
            .map { String(characters[$0..<min($0 + Self.groupSize, characters.count)]) }
            .joined(separator: " ")
    }

    /// Parses a key as typed: spaces, hyphens and case are ignored, and O reads as 0, I and L as 1.
    public init(text: String) throws(BackupError) {
        var values: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "-" || scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
            guard scalar.isASCII, values.count < Self.characterCount + 1 else {
                throw .invalidRecoveryKey("it has a character outside 0-9 A-Z or is longer than \(Self.characterCount) characters")
            }
            var byte = UInt8(scalar.value)
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
            switch byte {
            case UInt8(ascii: "O"): byte = UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): byte = UInt8(ascii: "1")
            default: break
            }
            guard let value = Self.alphabet.firstIndex(of: byte) else {
                throw .invalidRecoveryKey("'\(Character(scalar))' is not in the key alphabet")
            }
            values.append(UInt8(value))
        }
        guard values.count == Self.characterCount else {
            throw .invalidRecoveryKey("it has \(values.count) characters, not \(Self.characterCount)")
        }
        // 64 characters are exactly 40 bytes: no bits are left over.
        let decoded = Base32.pack(fiveBitValues: values).bytes
        let key = Array(decoded.prefix(Self.byteCount))
        let checksum = Array(decoded.suffix(Self.checksumCount))
        let expected = Array(SHA256.hash(data: key).prefix(Self.checksumCount))
        guard ConstantTime.equals(checksum, expected) else {
            throw .invalidRecoveryKey("its checksum does not match (a character is mistyped)")
        }
        self.bytes = key
    }
}
