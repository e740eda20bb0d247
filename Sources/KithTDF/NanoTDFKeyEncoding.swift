import Crypto
import Foundation

// Keys as other tools write them (`kith tdf encrypt --to`, `kith tdf decrypt --key`): PEM from OpenSSL or an OpenTDF
// SDK, or raw bytes. The curve follows from the encoding.

extension NanoTDF.PrivateKey {
    /// Reads a private key: PEM (PKCS#8 `PRIVATE KEY` or SEC1 `EC PRIVATE KEY`) on P-256, P-384 or P-521, or a raw
    /// big-endian scalar of 32, 48 or 66 bytes (P-256, P-384, P-521).
    public init(encoded bytes: [UInt8]) throws(NanoTDFError) {
        if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN") {
            let pem = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: pem) { self = .p256(key); return }
            if let key = try? P384.KeyAgreement.PrivateKey(pemRepresentation: pem) { self = .p384(key); return }
            if let key = try? P521.KeyAgreement.PrivateKey(pemRepresentation: pem) { self = .p521(key); return }
            throw .cryptoFailure("the PEM is not a P-256, P-384 or P-521 private key")
        }
        switch bytes.count {
        case 32: try self.init(curve: .secp256r1, rawScalar: bytes)
        case 48: try self.init(curve: .secp384r1, rawScalar: bytes)
        case 66: try self.init(curve: .secp521r1, rawScalar: bytes)
        default: throw .cryptoFailure("a raw private key is a 32-, 48- or 66-byte scalar, not \(bytes.count) bytes")
        }
    }

    /// The key as PKCS#8 PEM.
    public var pemRepresentation: String {
        switch self {
        case .p256(let key): key.pemRepresentation
        case .p384(let key): key.pemRepresentation
        case .p521(let key): key.pemRepresentation
        }
    }
}

extension NanoTDF.PublicKey {
    /// Reads a public key: PEM (`PUBLIC KEY`, SubjectPublicKeyInfo) on P-256, P-384 or P-521, or raw X9.62 bytes,
    /// compressed (33, 49, 67 bytes) or uncompressed (65, 97, 133 bytes).
    public init(encoded bytes: [UInt8]) throws(NanoTDFError) {
        if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN") {
            let pem = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let key = try? P256.KeyAgreement.PublicKey(pemRepresentation: pem) { self = .p256(key); return }
            if let key = try? P384.KeyAgreement.PublicKey(pemRepresentation: pem) { self = .p384(key); return }
            if let key = try? P521.KeyAgreement.PublicKey(pemRepresentation: pem) { self = .p521(key); return }
            throw .invalidPublicKey(field: "PEM public key (not P-256, P-384 or P-521)")
        }
        switch bytes.count {
        case 33: try self.init(curve: .secp256r1, compressedRepresentation: bytes)
        case 49: try self.init(curve: .secp384r1, compressedRepresentation: bytes)
        case 67: try self.init(curve: .secp521r1, compressedRepresentation: bytes)
        case 65:
            guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: bytes) else { throw .invalidPublicKey(field: "raw P-256 public key") }
            self = .p256(key)
        case 97:
            guard let key = try? P384.KeyAgreement.PublicKey(x963Representation: bytes) else { throw .invalidPublicKey(field: "raw P-384 public key") }
            self = .p384(key)
        case 133:
            guard let key = try? P521.KeyAgreement.PublicKey(x963Representation: bytes) else { throw .invalidPublicKey(field: "raw P-521 public key") }
            self = .p521(key)
        default:
            throw .invalidPublicKey(field: "raw public key of \(bytes.count) bytes (compressed 33/49/67 or uncompressed 65/97/133)")
        }
    }

    /// The key as SubjectPublicKeyInfo PEM.
    public var pemRepresentation: String {
        switch self {
        case .p256(let key): key.pemRepresentation
        case .p384(let key): key.pemRepresentation
        case .p521(let key): key.pemRepresentation
        }
    }
}
