import Crypto
import Foundation

extension NanoTDF {
    /// A recipient (or ephemeral) key-agreement public key on a curve swift-crypto supports.
    public enum PublicKey: Sendable {
        /// A P-256 key: what Kith writes to.
        case p256(P256.KeyAgreement.PublicKey)
        /// A P-384 key.
        case p384(P384.KeyAgreement.PublicKey)
        /// A P-521 key.
        case p521(P521.KeyAgreement.PublicKey)

        /// Decodes a compressed X9.62 point; throws ``NanoTDFError/invalidPublicKey(field:)`` if it is not on the curve.
        public init(curve: Curve, compressedRepresentation bytes: [UInt8], field: String = "public key") throws(NanoTDFError) {
            guard bytes.count == curve.compressedKeySize else { throw .invalidPublicKey(field: field) }
            do {
                switch curve {
                case .secp256r1: self = .p256(try P256.KeyAgreement.PublicKey(compressedRepresentation: bytes))
                case .secp384r1: self = .p384(try P384.KeyAgreement.PublicKey(compressedRepresentation: bytes))
                case .secp521r1: self = .p521(try P521.KeyAgreement.PublicKey(compressedRepresentation: bytes))
                case .secp256k1: throw NanoTDFError.unsupportedCurve(.secp256k1)
                }
            } catch let error as NanoTDFError {
                throw error
            } catch {
                throw .invalidPublicKey(field: field)
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

        /// The compressed X9.62 encoding (33, 49 or 67 bytes).
        public var compressedRepresentation: [UInt8] {
            switch self {
            case .p256(let key): Array(key.compressedRepresentation)
            case .p384(let key): Array(key.compressedRepresentation)
            case .p521(let key): Array(key.compressedRepresentation)
            }
        }

        /// Checks an ECDSA-SHA256 signature (`r`, `s` left-padded to the coordinate size) by this key over `message`.
        func isValidSignature(r: [UInt8], s: [UInt8], over message: [UInt8]) -> Bool {
            let size = curve.coordinateSize
            guard r.count <= size, s.count <= size else { return false }
            let raw = [UInt8](repeating: 0, count: size - r.count) + r + [UInt8](repeating: 0, count: size - s.count) + s
            let digest = SHA256.hash(data: message)
            do {
                switch self {
                case .p256(let key):
                    return try P256.Signing.PublicKey(rawRepresentation: key.rawRepresentation)
                        .isValidSignature(P256.Signing.ECDSASignature(rawRepresentation: raw), for: digest)
                case .p384(let key):
                    return try P384.Signing.PublicKey(rawRepresentation: key.rawRepresentation)
                        .isValidSignature(P384.Signing.ECDSASignature(rawRepresentation: raw), for: digest)
                case .p521(let key):
                    return try P521.Signing.PublicKey(rawRepresentation: key.rawRepresentation)
                        .isValidSignature(P521.Signing.ECDSASignature(rawRepresentation: raw), for: digest)
                }
            } catch {
                return false
            }
        }
    }
}
