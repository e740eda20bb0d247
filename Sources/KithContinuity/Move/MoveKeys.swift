import Crypto
import KithCanonical

/// What both sides of a move derive from the code's secret and the Noise handshake hash (the channel binding):
///
///     proof         = HMAC-SHA256(key = secret, "Kith_Move_v1_proof" | handshake hash)
///     stream key    = HKDF-SHA256(ikm = secret, salt = handshake hash, info = "Kith_Move_v1_stream", 32)
///     confirmation  = the first 4 bytes of SHA-256("Kith_Move_v1_confirm" | handshake hash), big-endian, mod 10^6
///
/// The proof is bound to this one link (a proof seen elsewhere is useless); the stream key seals the backup
/// container that travels inside the link, and is never stored.
public struct MoveKeys: Sendable {
    /// The proof the sender sends.
    public let proof: [UInt8]
    /// The recovery key that seals the backup container of this move.
    public let streamKey: RecoveryKey
    /// The six digits both screens show.
    public let confirmation: String

    /// Derives the keys of one link.
    public init(secret: [UInt8], handshakeHash: [UInt8]) {
        let key = SymmetricKey(data: secret)
        proof = Array(HMAC<SHA256>.authenticationCode(for: Array("Kith_Move_v1_proof".utf8) + handshakeHash, using: key))
        let stream = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: handshakeHash, info: Array("Kith_Move_v1_stream".utf8), outputByteCount: 32)
        streamKey = RecoveryKey(unchecked: stream.withUnsafeBytes { Array($0) })
        let digest = Array(SHA256.hash(data: Array("Kith_Move_v1_confirm".utf8) + handshakeHash))
        let number = (UInt32(digest[0]) << 24 | UInt32(digest[1]) << 16 | UInt32(digest[2]) << 8 | UInt32(digest[3])) % 1_000_000
        let digits = String(number)
        confirmation = String(repeating: "0", count: MoveLimits.confirmationDigits - digits.count) + digits
    }

    /// Whether `received` is this link's proof (constant time).
    public func accepts(proof received: [UInt8]) -> Bool {
        received.count == proof.count && ConstantTime.equals(received, proof)
    }
}
