import Crypto
import KithEd25519

/// Converts Ed25519 identity keys to X25519 keys so the identity key can take part in X3DH.
///
/// Public keys use the birational map `u = (1 + y) / (1 - y) mod 2^255 - 19`; private keys are the
/// clamped first half of `SHA-512(seed)`, the scalar Ed25519 itself signs with. Both sides of a
/// DH therefore agree: `X25519(convert(a), convert(B)) == X25519(convert(b), convert(A))`.
/// The same map is libsodium's `crypto_sign_ed25519_pk_to_curve25519` / `_sk_to_curve25519`.
public enum EdwardsToMontgomery {
    /// Converts an Ed25519 public key (32 bytes) to the X25519 u-coordinate (32 bytes).
    ///
    /// - Throws: ``RatchetError/invalidKeyLength(expected:actual:)``,
    ///   ``RatchetError/invalidEd25519PublicKey`` (non-canonical y or not on the curve),
    ///   ``RatchetError/lowOrderPoint`` (one of the eight small-order points) or
    ///   ``RatchetError/notInPrimeOrderSubgroup`` (a mixed-order point).
    public static func publicKey(fromEd25519 publicKey: [UInt8]) throws(RatchetError) -> [UInt8] {
        guard publicKey.count == RatchetConstants.ed25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.ed25519KeySize, actual: publicKey.count)
        }
        do {
            return try StrictEd25519.validatePublicKey(publicKey)
        } catch {
            switch error {
            case .smallOrder: throw .lowOrderPoint
            case .notInPrimeOrderSubgroup: throw .notInPrimeOrderSubgroup
            default: throw .invalidEd25519PublicKey
            }
        }
    }

    /// Converts an Ed25519 private key seed (32 bytes) to the clamped X25519 private scalar.
    public static func privateKey(fromEd25519Seed seed: [UInt8]) throws(RatchetError) -> [UInt8] {
        guard seed.count == RatchetConstants.ed25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.ed25519KeySize, actual: seed.count)
        }
        var scalar = Array(SHA512.hash(data: seed).prefix(32))
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        return scalar
    }

    /// Converts a signing key to an X25519 key-agreement key.
    public static func keyAgreementKey(from signingKey: Curve25519.Signing.PrivateKey) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        let scalar = try privateKey(fromEd25519Seed: Array(signingKey.rawRepresentation))
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        } catch {
            throw .invalidKeyLength(expected: 32, actual: scalar.count)
        }
    }

    /// Converts a signature-verification key to an X25519 key-agreement public key.
    public static func keyAgreementKey(from publicKey: Curve25519.Signing.PublicKey) throws(RatchetError) -> Curve25519.KeyAgreement.PublicKey {
        let u = try self.publicKey(fromEd25519: Array(publicKey.rawRepresentation))
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: u)
        } catch {
            throw .invalidKeyLength(expected: 32, actual: u.count)
        }
    }

    /// Canonical u-coordinates of the small-order points of Curve25519.
    static var lowOrderMontgomeryU: [[UInt8]] { StrictEd25519.lowOrderMontgomeryU }
}
