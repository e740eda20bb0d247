import CSecp256k1
import Crypto
import KithCanonical

/// A secp256k1 private key that signs invites: the creator's XMTP identity key in Convos.
public struct InviteSigningKey: Sendable {
    /// The 32-byte big-endian scalar.
    public let rawRepresentation: [UInt8]

    /// The matching public key.
    public let publicKey: InvitePublicKey

    /// Wraps a 32-byte private key.
    ///
    /// - Throws: ``InviteError/invalidPrivateKey`` for a wrong length, zero or a value not below the group order.
    public init<Bytes: Collection>(rawRepresentation bytes: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let key = Array(bytes)
        guard key.count == 32, kith_secp256k1_seckey_verify(key) == 1 else { throw .invalidPrivateKey }
        var output = [UInt8](repeating: 0, count: 65)
        guard kith_secp256k1_public_key(key, Secp256k1Seed.fresh(), &output) == 1 else { throw .invalidPrivateKey }
        rawRepresentation = key
        publicKey = InvitePublicKey(trustedUncompressed: output)
    }

    /// A fresh key from the system's secure generator.
    public static func generate() -> InviteSigningKey {
        while true {
            if let key = try? InviteSigningKey(rawRepresentation: Secp256k1Seed.fresh()) { return key }
        }
    }

    /// Signs SHA-256 of `message` (RFC 6979 nonce, low S): 65 bytes `r ‖ s ‖ recid`.
    ///
    /// - Throws: ``InviteError/signingFailed`` if libsecp256k1 fails (it does not for a valid key).
    public func signature<Bytes: Collection>(for message: Bytes) throws(InviteError) -> InviteSignature
    where Bytes.Element == UInt8 {
        let digest = Array(SHA256.hash(data: Array(message)))
        var output = [UInt8](repeating: 0, count: 65)
        guard kith_secp256k1_sign_recoverable(digest, rawRepresentation, Secp256k1Seed.fresh(), &output) == 1 else {
            throw .signingFailed
        }
        return try InviteSignature(output)
    }
}
