import Crypto
import Foundation

/// DHKEM `Encap` and `Decap` (RFC 9180 §4.1) on raw MLS key encodings, built on swift-crypto key agreement.
///
/// One Diffie-Hellman per operation: the X25519 all-zero shared secret is rejected on the output itself (RFC 9180 §7.1.4),
/// and NIST points are validated by swift-crypto when parsed.
extension KEMAlgorithm {
    /// The result of `Encap`: the KEM shared secret and the encapsulated key `enc`.
    struct Encapsulation: Sendable {
        /// `shared_secret` (`Nsecret` bytes).
        var sharedSecret: [UInt8]
        /// `enc`: the serialized ephemeral public key.
        var encapsulatedKey: [UInt8]
    }

    /// `Nsecret`: the size of the KEM shared secret (the KEM hash size).
    var sharedSecretSize: Int { kdfHash.outputSize }

    /// `Encap(pkR)` with a fresh ephemeral key pair.
    func encapsulate(publicKey: [UInt8]) throws -> Encapsulation {
        let dh: [UInt8]
        let enc: [UInt8]
        switch self {
        case .x25519:
            let recipient = try parseX25519PublicKey(publicKey)
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            dh = try Self.checkedX25519(ephemeral.sharedSecretFromKeyAgreement(with: recipient))
            enc = Array(ephemeral.publicKey.rawRepresentation)
        case .p256:
            let recipient = try parsePublicKey { try P256.KeyAgreement.PublicKey(x963Representation: publicKey) }
            let ephemeral = P256.KeyAgreement.PrivateKey()
            dh = try Self.bytes(ephemeral.sharedSecretFromKeyAgreement(with: recipient))
            enc = Array(ephemeral.publicKey.x963Representation)
        case .p384:
            let recipient = try parsePublicKey { try P384.KeyAgreement.PublicKey(x963Representation: publicKey) }
            let ephemeral = P384.KeyAgreement.PrivateKey()
            dh = try Self.bytes(ephemeral.sharedSecretFromKeyAgreement(with: recipient))
            enc = Array(ephemeral.publicKey.x963Representation)
        case .p521:
            let recipient = try parsePublicKey { try P521.KeyAgreement.PublicKey(x963Representation: publicKey) }
            let ephemeral = P521.KeyAgreement.PrivateKey()
            dh = try Self.bytes(ephemeral.sharedSecretFromKeyAgreement(with: recipient))
            enc = Array(ephemeral.publicKey.x963Representation)
        }
        return Encapsulation(sharedSecret: try extractAndExpand(dh: dh, kemContext: enc + publicKey), encapsulatedKey: enc)
    }

    /// `Decap(enc, skR)`. The recipient's serialized public key is part of the KEM context; it comes from the parsed private key.
    func decapsulate(encapsulatedKey enc: [UInt8], privateKey: [UInt8]) throws -> [UInt8] {
        let dh: [UInt8]
        let recipientPublicKey: [UInt8]
        switch self {
        case .x25519:
            let key = try parsePrivateKey { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) }
            dh = try Self.checkedX25519(key.sharedSecretFromKeyAgreement(with: parseX25519PublicKey(enc)))
            recipientPublicKey = Array(key.publicKey.rawRepresentation)
        case .p256:
            let key = try parsePrivateKey { try P256.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 32)) }
            let ephemeral = try parsePublicKey { try P256.KeyAgreement.PublicKey(x963Representation: enc) }
            dh = try Self.bytes(key.sharedSecretFromKeyAgreement(with: ephemeral))
            recipientPublicKey = Array(key.publicKey.x963Representation)
        case .p384:
            let key = try parsePrivateKey { try P384.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 48)) }
            let ephemeral = try parsePublicKey { try P384.KeyAgreement.PublicKey(x963Representation: enc) }
            dh = try Self.bytes(key.sharedSecretFromKeyAgreement(with: ephemeral))
            recipientPublicKey = Array(key.publicKey.x963Representation)
        case .p521:
            let key = try parsePrivateKey { try P521.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 66)) }
            let ephemeral = try parsePublicKey { try P521.KeyAgreement.PublicKey(x963Representation: enc) }
            dh = try Self.bytes(key.sharedSecretFromKeyAgreement(with: ephemeral))
            recipientPublicKey = Array(key.publicKey.x963Representation)
        }
        return try extractAndExpand(dh: dh, kemContext: enc + recipientPublicKey)
    }

    /// `ExtractAndExpand(dh, kem_context)` with the KEM's `suite_id` (RFC 9180 §4.1).
    private func extractAndExpand(dh: [UInt8], kemContext: [UInt8]) throws -> [UInt8] {
        let prk = kdfHash.labeledExtract(suiteID: kemSuiteID, salt: [], label: "eae_prk", ikm: dh)
        return try kdfHash.labeledExpand(suiteID: kemSuiteID, prk: prk, label: "shared_secret", info: kemContext, length: sharedSecretSize)
    }

    // MARK: Parsing

    func parseX25519PublicKey(_ bytes: [UInt8]) throws -> Curve25519.KeyAgreement.PublicKey {
        guard bytes.count == 32 else { throw MLSCryptoError.invalidPublicKey("X25519 public key must be 32 bytes") }
        return try parsePublicKey { try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes) }
    }

    func parsePublicKey<K>(_ body: () throws -> K) throws -> K {
        do { return try body() } catch { throw MLSCryptoError.invalidPublicKey("\(self) public key rejected") }
    }

    func parsePrivateKey<K>(_ body: () throws -> K) throws -> K {
        do { return try body() } catch { throw MLSCryptoError.invalidPrivateKey("\(self) private key rejected") }
    }

    /// The bytes of an X25519 shared secret, rejecting the all-zero value of a small-order peer key (checked without early exit).
    private static func checkedX25519(_ secret: SharedSecret) throws -> [UInt8] {
        let bytes = secret.withUnsafeBytes { Array($0) }
        guard bytes.reduce(0, |) != 0 else { throw MLSCryptoError.allZeroSharedSecret }
        return bytes
    }

    private static func bytes(_ secret: SharedSecret) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }
}
