import Crypto

/// The randomness the protocol consumes: fresh X25519 key pairs and ML-KEM-768 encapsulations.
///
/// Production code uses ``SystemEntropySource``; tests inject recorded values to reproduce the
/// published vectors (swift-crypto's encapsulation cannot be seeded).
public protocol RatchetEntropySource: Sendable {
    /// A fresh X25519 private key.
    func newX25519PrivateKey() throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey
    /// Encapsulates a fresh shared secret to `publicKey`.
    func encapsulate(to publicKey: [UInt8]) throws(RatchetError) -> (ciphertext: [UInt8], sharedSecret: [UInt8])
}

/// The operating system's CSPRNG through swift-crypto.
public struct SystemEntropySource: RatchetEntropySource {
    /// Creates the source.
    public init() {}

    /// See ``RatchetEntropySource/newX25519PrivateKey()``.
    public func newX25519PrivateKey() throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        Curve25519.KeyAgreement.PrivateKey()
    }

    /// See ``RatchetEntropySource/encapsulate(to:)``.
    public func encapsulate(to publicKey: [UInt8]) throws(RatchetError) -> (ciphertext: [UInt8], sharedSecret: [UInt8]) {
        do {
            let key = try MLKEM768.PublicKey(rawRepresentation: publicKey)
            let result = try key.encapsulate()
            return (Array(result.encapsulated), result.sharedSecret.withUnsafeBytes { Array($0) })
        } catch {
            throw .invalidPQKey
        }
    }
}
