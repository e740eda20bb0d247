/// Errors raised by MLS cryptographic operations.
public enum MLSCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The cipher suite is not implemented (suites 4 and 6 need X448/Ed448, which swift-crypto lacks).
    case unsupportedCipherSuite(UInt16)
    /// A private key had the wrong size or is not a valid scalar for its curve.
    case invalidPrivateKey(String)
    /// A public key could not be parsed for its algorithm.
    case invalidPublicKey(String)
    /// A signature did not verify.
    case invalidSignature(label: String)
    /// AEAD or HPKE decryption failed (wrong key, nonce, AAD or corrupted ciphertext).
    case decryptionFailed(String)
    /// An encryption primitive failed.
    case encryptionFailed(String)
    /// The X25519 shared secret was all zeros (small-order peer key, RFC 9180 §7.1.4).
    case allZeroSharedSecret
    /// DeriveKeyPair found no valid scalar within 256 candidates (RFC 9180 §7.1.3).
    case deriveKeyPairFailed
    /// A requested output length is outside what the primitive can produce.
    case invalidLength(String)
    /// Signing failed inside the signature primitive.
    case signingFailed(String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .unsupportedCipherSuite(let id):
            id == 4 || id == 6
                ? "cipher suite \(id) needs X448/Ed448, which is not available on swift-crypto"
                : "cipher suite \(id) is not supported"
        case .invalidPrivateKey(let detail): "invalid private key: \(detail)"
        case .invalidPublicKey(let detail): "invalid public key: \(detail)"
        case .invalidSignature(let label): "signature over \(label) does not verify"
        case .decryptionFailed(let detail): "decryption failed: \(detail)"
        case .encryptionFailed(let detail): "encryption failed: \(detail)"
        case .allZeroSharedSecret: "X25519 shared secret is all zeros (small-order public key)"
        case .deriveKeyPairFailed: "DeriveKeyPair found no valid private key in 256 candidates"
        case .invalidLength(let detail): "invalid length: \(detail)"
        case .signingFailed(let detail): "signing failed: \(detail)"
        }
    }
}
