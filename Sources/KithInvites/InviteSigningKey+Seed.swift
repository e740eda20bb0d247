import Crypto
import KithIdentity

extension InviteSigningKey {
    /// The invite key of a Kith identity: HKDF-SHA256 of the device seed with ``KeyDerivation/inviteKey``
    /// (salt `"Kith_Invite_v1"`, info `"invite_key"`, 32 bytes), read as a big-endian secp256k1 scalar.
    ///
    /// Derived from the device seed, not a rotated key seed, so it lasts as long as the feed id it is bound to.
    ///
    /// - Throws: ``InviteError/invalidPrivateKey`` when the 32 bytes are zero or not below the group order
    ///   (probability about 2⁻¹²⁸; the seed is then unusable for invites rather than silently re-derived).
    public init(seed: Seed) throws(InviteError) {
        let derived = KeyDerivation.derive(KeyDerivation.inviteKey, from: seed)
        try self.init(rawRepresentation: derived.withUnsafeBytes { Array($0) })
    }
}
