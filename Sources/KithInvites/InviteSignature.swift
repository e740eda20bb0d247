import CSecp256k1
import Crypto

/// A recoverable secp256k1 ECDSA signature: `r(32) ‖ s(32, low S) ‖ recid(1, 0...3)`.
public struct InviteSignature: Sendable, Hashable {
    /// The 65 bytes as carried in `SignedInvite.signature`.
    public let bytes: [UInt8]

    /// Checks the layout: 65 bytes, recid 0...3, r and s in range, s in the lower half.
    ///
    /// - Throws: ``InviteError/invalidSignatureLength(_:)``, ``InviteError/invalidRecoveryID(_:)``,
    ///   ``InviteError/signatureRecoveryFailed`` (r or s out of range) or ``InviteError/highS``.
    public init<Bytes: Collection>(_ encoded: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let input = Array(encoded)
        guard input.count == InviteLimits.signatureBytes else { throw .invalidSignatureLength(input.count) }
        guard input[64] <= 3 else { throw .invalidRecoveryID(input[64]) }
        let compact = Array(input[0..<64])
        guard compact.contains(where: { $0 != 0 }) else { throw .signatureRecoveryFailed }
        switch kith_secp256k1_compact_check(compact) {
        case 1: break
        case 2: throw .highS
        default: throw .signatureRecoveryFailed
        }
        bytes = input
    }

    /// The recovery id (0...3).
    public var recoveryID: UInt8 { bytes[64] }

    /// The public key that produced this signature over SHA-256 of `message`.
    ///
    /// Any digest recovers *some* key: success proves nothing until the key is compared with an expected one
    /// (``InvitePublicKey/matches(_:)``) or bound to the creator's inbox id (``InboxID/isOwned(by:)``).
    ///
    /// - Throws: ``InviteError/signatureRecoveryFailed`` when no point corresponds to the signature.
    public func recoverSigner<Bytes: Collection>(of message: Bytes) throws(InviteError) -> InvitePublicKey
    where Bytes.Element == UInt8 {
        let digest = Array(SHA256.hash(data: Array(message)))
        var output = [UInt8](repeating: 0, count: 65)
        guard kith_secp256k1_recover(digest, bytes, &output) == 1 else { throw .signatureRecoveryFailed }
        return InvitePublicKey(trustedUncompressed: output)
    }
}
