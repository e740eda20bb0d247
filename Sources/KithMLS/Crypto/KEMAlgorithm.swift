import Crypto
import Foundation

/// The DHKEM of a cipher suite (RFC 9180), on raw MLS key encodings.
///
/// Private keys: X25519 raw 32 bytes, NIST curves raw big-endian scalar. Public keys: X25519 raw 32 bytes,
/// NIST curves uncompressed SEC1 point.
public enum KEMAlgorithm: Sendable, Hashable {
    /// DHKEM(X25519, HKDF-SHA256).
    case x25519
    /// DHKEM(P-256, HKDF-SHA256).
    case p256
    /// DHKEM(P-384, HKDF-SHA384).
    case p384
    /// DHKEM(P-521, HKDF-SHA512).
    case p521

    /// The RFC 9180 KEM identifier.
    public var identifier: UInt16 {
        switch self {
        case .p256: 0x0010
        case .p384: 0x0011
        case .p521: 0x0012
        case .x25519: 0x0020
        }
    }

    /// The hash of the KEM's internal KDF.
    var kdfHash: HashAlgorithm {
        switch self {
        case .x25519, .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    /// Private key size (`Nsk`).
    public var privateKeySize: Int {
        switch self {
        case .x25519, .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    // MARK: Keys

    /// Generates a fresh key pair.
    public func generateKeyPair() -> KeyPair {
        switch self {
        case .x25519:
            let key = Curve25519.KeyAgreement.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.rawRepresentation))
        case .p256:
            let key = P256.KeyAgreement.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        case .p384:
            let key = P384.KeyAgreement.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        case .p521:
            let key = P521.KeyAgreement.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        }
    }

    /// The public key of a raw private key.
    public func publicKey(privateKey: [UInt8]) throws -> [UInt8] {
        do {
            switch self {
            case .x25519:
                guard privateKey.count == 32 else { throw MLSCryptoError.invalidPrivateKey("X25519 key must be 32 bytes") }
                return Array(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation)
            case .p256: return Array(try P256.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 32)).publicKey.x963Representation)
            case .p384: return Array(try P384.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 48)).publicKey.x963Representation)
            case .p521: return Array(try P521.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 66)).publicKey.x963Representation)
            }
        } catch let error as MLSCryptoError {
            throw error
        } catch {
            throw MLSCryptoError.invalidPrivateKey("\(self) private key rejected")
        }
    }

    /// The KEM's `suite_id`: `"KEM" || I2OSP(kem_id, 2)` (RFC 9180 §4.1).
    var kemSuiteID: [UInt8] { Array("KEM".utf8) + [UInt8(identifier >> 8), UInt8(identifier & 0xFF)] }

    /// `DeriveKeyPair(ikm)` (RFC 9180 §7.1.3), which swift-crypto does not expose.
    public func deriveKeyPair(ikm: [UInt8]) throws -> KeyPair {
        let prk = kdfHash.labeledExtract(suiteID: kemSuiteID, salt: [], label: "dkp_prk", ikm: ikm)
        func labeledExpand(_ label: String, _ info: [UInt8], _ length: Int) throws -> [UInt8] {
            try kdfHash.labeledExpand(suiteID: kemSuiteID, prk: prk, label: label, info: info, length: length)
        }
        switch self {
        case .x25519:
            let secret = try labeledExpand("sk", [], 32)
            return KeyPair(privateKey: secret, publicKey: try publicKey(privateKey: secret))
        case .p256, .p384, .p521:
            let bitmask: UInt8 = self == .p521 ? 0x01 : 0xFF
            for counter in 0...255 {
                var candidate = try labeledExpand("candidate", [UInt8(counter)], privateKeySize)
                candidate[0] &= bitmask
                if let pub = try? publicKey(privateKey: candidate) {
                    return KeyPair(privateKey: candidate, publicKey: pub)
                }
            }
            throw MLSCryptoError.deriveKeyPairFailed
        }
    }
}
