import Crypto
import Foundation

extension NanoTDF {
    /// A recipient (or ephemeral) key-agreement private key on a curve swift-crypto supports.
    public enum PrivateKey: Sendable {
        /// A P-256 key.
        case p256(P256.KeyAgreement.PrivateKey)
        /// A P-384 key.
        case p384(P384.KeyAgreement.PrivateKey)
        /// A P-521 key.
        case p521(P521.KeyAgreement.PrivateKey)

        /// Generates a fresh key on `curve` (secp256k1 is not available).
        public init(generatingOn curve: Curve) throws(NanoTDFError) {
            switch curve {
            case .secp256r1: self = .p256(P256.KeyAgreement.PrivateKey())
            case .secp384r1: self = .p384(P384.KeyAgreement.PrivateKey())
            case .secp521r1: self = .p521(P521.KeyAgreement.PrivateKey())
            case .secp256k1: throw .unsupportedCurve(.secp256k1)
            }
        }

        /// Loads a raw big-endian scalar (32, 48 or 66 bytes).
        public init(curve: Curve, rawScalar: [UInt8]) throws(NanoTDFError) {
            do {
                switch curve {
                case .secp256r1: self = .p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
                case .secp384r1: self = .p384(try P384.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
                case .secp521r1: self = .p521(try P521.KeyAgreement.PrivateKey(rawRepresentation: rawScalar))
                case .secp256k1: throw NanoTDFError.unsupportedCurve(.secp256k1)
                }
            } catch let error as NanoTDFError {
                throw error
            } catch {
                throw .cryptoFailure("private key scalar rejected")
            }
        }

        /// The key's curve.
        public var curve: Curve {
            switch self {
            case .p256: .secp256r1
            case .p384: .secp384r1
            case .p521: .secp521r1
            }
        }

        /// The matching public key.
        public var publicKey: PublicKey {
            switch self {
            case .p256(let key): .p256(key.publicKey)
            case .p384(let key): .p384(key.publicKey)
            case .p521(let key): .p521(key.publicKey)
            }
        }

        /// ECDH with `peer`: the shared x-coordinate.
        func sharedSecret(with peer: PublicKey) throws(NanoTDFError) -> SharedSecret {
            do {
                switch (self, peer) {
                case (.p256(let mine), .p256(let theirs)): return try mine.sharedSecretFromKeyAgreement(with: theirs)
                case (.p384(let mine), .p384(let theirs)): return try mine.sharedSecretFromKeyAgreement(with: theirs)
                case (.p521(let mine), .p521(let theirs)): return try mine.sharedSecretFromKeyAgreement(with: theirs)
                default: throw NanoTDFError.curveMismatch(expected: peer.curve, actual: curve)
                }
            } catch let error as NanoTDFError {
                throw error
            } catch {
                throw .cryptoFailure("ECDH")
            }
        }

        /// ECDSA-SHA256 over `message` with this key used as a signing key: returns fixed-size `(r, s)`.
        func sign(_ message: [UInt8]) throws(NanoTDFError) -> (r: [UInt8], s: [UInt8]) {
            let digest = SHA256.hash(data: message)
            let raw: [UInt8]
            do {
                switch self {
                case .p256(let key):
                    raw = Array(try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).signature(for: digest).rawRepresentation)
                case .p384(let key):
                    raw = Array(try P384.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).signature(for: digest).rawRepresentation)
                case .p521(let key):
                    raw = Array(try P521.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).signature(for: digest).rawRepresentation)
                }
            } catch {
                throw .cryptoFailure("ECDSA signing")
            }
            let half = raw.count / 2
            return (Array(raw[..<half]), Array(raw[half...]))
        }
    }
}
