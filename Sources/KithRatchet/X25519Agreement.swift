import Crypto
import KithCanonical

/// X25519 with the checks Kith requires: exact key lengths and no all-zero output.
public enum X25519Agreement {
    /// Computes `X25519(privateKey, publicKey)`.
    ///
    /// - Throws: ``RatchetError/allZeroSharedSecret`` when the peer key has small order.
    public static func sharedSecret(
        _ privateKey: Curve25519.KeyAgreement.PrivateKey,
        _ publicKey: Curve25519.KeyAgreement.PublicKey
    ) throws(RatchetError) -> [UInt8] {
        let shared: SharedSecret
        do {
            shared = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw .allZeroSharedSecret
        }
        let bytes = shared.withUnsafeBytes { Array($0) }
        if ConstantTime.equals(bytes, zeroSecret) { throw .allZeroSharedSecret }
        return bytes
    }

    /// Parses a 32-byte X25519 public key, rejecting the small-order u-coordinates.
    public static func publicKey(_ bytes: [UInt8]) throws(RatchetError) -> Curve25519.KeyAgreement.PublicKey {
        guard bytes.count == RatchetConstants.x25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.x25519KeySize, actual: bytes.count)
        }
        var masked = bytes
        masked[31] &= 0x7F
        if EdwardsToMontgomery.lowOrderMontgomeryU.contains(where: { ConstantTime.equals($0, masked) }) {
            throw .lowOrderPoint
        }
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes)
        } catch {
            throw .invalidKeyLength(expected: RatchetConstants.x25519KeySize, actual: bytes.count)
        }
    }

    /// Parses a 32-byte X25519 private key.
    public static func privateKey(_ bytes: [UInt8]) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        guard bytes.count == RatchetConstants.x25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.x25519KeySize, actual: bytes.count)
        }
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes)
        } catch {
            throw .invalidKeyLength(expected: RatchetConstants.x25519KeySize, actual: bytes.count)
        }
    }

    private static let zeroSecret = [UInt8](repeating: 0, count: 32)
}
