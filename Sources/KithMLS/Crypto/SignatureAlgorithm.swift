import Crypto
import Foundation

/// The signature scheme of a cipher suite, on raw MLS key encodings.
///
/// Private keys: Ed25519 32-byte seed, ECDSA raw big-endian scalar. Public keys: Ed25519 raw 32 bytes,
/// ECDSA uncompressed SEC1 point. ECDSA signatures are DER encoded (RFC 9420 §5.1.2).
public enum SignatureAlgorithm: Sendable, Hashable {
    /// Ed25519.
    case ed25519
    /// ECDSA over P-256 with SHA-256.
    case p256
    /// ECDSA over P-384 with SHA-384.
    case p384
    /// ECDSA over P-521 with SHA-512.
    case p521

    /// Signs `message` with the raw private key.
    public func sign(privateKey: [UInt8], message: [UInt8]) throws -> [UInt8] {
        do {
            switch self {
            case .ed25519:
                return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: message))
            case .p256:
                return Array(try P256.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 32)).signature(for: message).derRepresentation)
            case .p384:
                return Array(try P384.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 48)).signature(for: message).derRepresentation)
            case .p521:
                return Array(try P521.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 66)).signature(for: message).derRepresentation)
            }
        } catch {
            throw MLSCryptoError.invalidPrivateKey("\(self) signing key rejected")
        }
    }

    /// Returns true when `signature` is valid for `message` under the raw public key; false for malformed keys or signatures.
    public func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        switch self {
        case .ed25519:
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
            return key.isValidSignature(signature, for: message)
        case .p256:
            guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
                  let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: message)
        case .p384:
            guard let key = try? P384.Signing.PublicKey(x963Representation: publicKey),
                  let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: message)
        case .p521:
            guard let key = try? P521.Signing.PublicKey(x963Representation: publicKey),
                  let sig = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: message)
        }
    }

    /// The raw public key of a raw private key.
    public func publicKey(privateKey: [UInt8]) throws -> [UInt8] {
        do {
            switch self {
            case .ed25519: return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation)
            case .p256: return Array(try P256.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 32)).publicKey.x963Representation)
            case .p384: return Array(try P384.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 48)).publicKey.x963Representation)
            case .p521: return Array(try P521.Signing.PrivateKey(rawRepresentation: Self.leftPadded(privateKey, to: 66)).publicKey.x963Representation)
            }
        } catch {
            throw MLSCryptoError.invalidPrivateKey("\(self) signing key rejected")
        }
    }

    /// Generates a fresh key pair.
    public func generateKeyPair() -> KeyPair {
        switch self {
        case .ed25519:
            let key = Curve25519.Signing.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.rawRepresentation))
        case .p256:
            let key = P256.Signing.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        case .p384:
            let key = P384.Signing.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        case .p521:
            let key = P521.Signing.PrivateKey()
            return KeyPair(privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation))
        }
    }

    /// Left-pads a big-endian scalar with zeros: some encoders strip leading zero bytes of ECDSA keys.
    static func leftPadded(_ scalar: [UInt8], to size: Int) -> [UInt8] {
        scalar.count >= size ? scalar : [UInt8](repeating: 0, count: size - scalar.count) + scalar
    }
}
