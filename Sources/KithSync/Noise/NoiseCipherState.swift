import Crypto

/// Noise CipherState for ChaChaPoly (Noise spec section 5.1): a key and a 64-bit nonce counter.
///
/// The nonce 2^64 − 1 is reserved for ``rekey()``; encrypting or decrypting at it throws
/// ``NoiseError/nonceExhausted``. ``setNonce(_:)`` supports explicit nonces on lossy links.
public struct NoiseCipherState: Sendable {
    private var key: SymmetricKey?
    /// The next nonce to use.
    public private(set) var nonce: UInt64 = 0

    /// The reserved nonce value.
    public static let reservedNonce = UInt64.max

    /// Creates a cipher with no key (encryption is the identity, as the spec requires).
    public init() {}

    /// Creates a cipher with a 32-byte key and nonce 0.
    public init(key: [UInt8]) throws(NoiseError) {
        guard key.count == 32 else { throw .invalidKeyLength(key.count) }
        self.key = SymmetricKey(data: key)
    }

    /// True once a key is set.
    public var hasKey: Bool { key != nil }

    /// Sets the next nonce (for explicit-nonce transports).
    public mutating func setNonce(_ value: UInt64) { nonce = value }

    /// Encrypts with the current nonce and increments it; without a key returns the plaintext.
    public mutating func encrypt(associatedData: [UInt8], plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { return plaintext }
        guard nonce != Self.reservedNonce else { throw .nonceExhausted }
        let output = try Self.seal(key: key, nonce: nonce, associatedData: associatedData, plaintext: plaintext)
        nonce += 1
        return output
    }

    /// Decrypts with the current nonce and increments it on success; without a key returns the input.
    public mutating func decrypt(associatedData: [UInt8], ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard let key else { return ciphertext }
        guard nonce != Self.reservedNonce else { throw .nonceExhausted }
        let output = try Self.open(key: key, nonce: nonce, associatedData: associatedData, ciphertext: ciphertext)
        nonce += 1
        return output
    }

    /// Replaces the key by ENCRYPT(k, 2^64 − 1, empty, 32 zero bytes)[0..<32] (spec 4.2 REKEY); keeps the nonce.
    public mutating func rekey() throws(NoiseError) {
        guard let key else { return }
        let next = try Self.seal(key: key, nonce: Self.reservedNonce, associatedData: [], plaintext: [UInt8](repeating: 0, count: 32))
        self.key = SymmetricKey(data: next.prefix(32))
    }

    /// The 96-bit ChaChaPoly nonce: 4 zero bytes then the counter little-endian.
    static func nonceBytes(_ counter: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { bytes[4 + index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index))) }
        return bytes
    }

    private static func seal(key: SymmetricKey, nonce: UInt64, associatedData: [UInt8], plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        do {
            let box = try ChaChaPoly.seal(plaintext, using: key, nonce: ChaChaPoly.Nonce(data: nonceBytes(nonce)), authenticating: associatedData)
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .authenticationFailed
        }
    }

    private static func open(key: SymmetricKey, nonce: UInt64, associatedData: [UInt8], ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard ciphertext.count >= 16 else { throw .authenticationFailed }
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: nonceBytes(nonce)),
                ciphertext: ciphertext.dropLast(16),
                tag: ciphertext.suffix(16)
            )
            return Array(try ChaChaPoly.open(box, using: key, authenticating: associatedData))
        } catch {
            throw .authenticationFailed
        }
    }
}
