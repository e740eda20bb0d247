import Crypto
import Foundation
import KithCanonical

/// A ChatSecure-Push whitelist token: a 160-bit random capability that lets one contact knock
/// (wake the owner's devices), written as 40 lowercase hex characters on the wire.
///
/// Equality is constant-time, and ``description`` never prints the secret; servers store
/// ``storageDigest`` instead of the token.
public struct WhitelistToken: Sendable, Hashable, CustomStringConvertible {
    /// The 20 random bytes.
    public let bytes: [UInt8]

    /// Generates a fresh random token from the system's secure generator.
    public static func generate() -> WhitelistToken {
        var generator = SystemRandomNumberGenerator()
        return WhitelistToken(unchecked: (0..<PushLimits.whitelistTokenBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Wraps 20 bytes.
    ///
    /// - Throws: ``WhitelistTokenError/wrongLength(_:)`` for any other length.
    public init(bytes: [UInt8]) throws(WhitelistTokenError) {
        guard bytes.count == PushLimits.whitelistTokenBytes else { throw .wrongLength(bytes.count) }
        self.bytes = bytes
    }

    /// Parses the 40-character hex form; upper-case digits are accepted (ChatSecure writes lower case).
    ///
    /// - Throws: ``WhitelistTokenError/wrongLength(_:)`` or ``WhitelistTokenError/notHex(offset:)``.
    public init(hex: String) throws(WhitelistTokenError) {
        let digits = Array(hex.utf8)
        guard digits.count == PushLimits.whitelistTokenBytes * 2 else { throw .wrongLength(digits.count / 2) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(PushLimits.whitelistTokenBytes)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Hex.value(ofDigit: digits[index]) else { throw .notHex(offset: index) }
            guard let low = Hex.value(ofDigit: digits[index + 1]) else { throw .notHex(offset: index + 1) }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The wire form: 40 lowercase hex characters.
    public var hex: String { Hex.encode(bytes) }

    /// SHA-256 of the token bytes: the form a gateway stores and looks tokens up by, so a
    /// database leak does not hand out capabilities.
    public var storageDigest: [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// A redacted form for logs: the first 4 hex characters only.
    public var description: String { "WhitelistToken(\(hex.prefix(4))…)" }

    /// Compares in constant time.
    public static func == (lhs: WhitelistToken, rhs: WhitelistToken) -> Bool { ConstantTime.equals(lhs.bytes, rhs.bytes) }

    /// Hashes the token bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
