import Crypto
import Foundation

/// The exact HKDF-SHA256 inputs of every key derived from the seed (documented in docs/FEED-FORMAT.md).
public enum KeyDerivation {
    /// One derivation: HKDF-SHA256(ikm = seed, salt, info, length).
    public struct Label: Sendable {
        /// The HKDF salt (empty means RFC 5869's default of 32 zero bytes).
        public let salt: [UInt8]
        /// The HKDF info string.
        public let info: [UInt8]
        /// Output length in bytes.
        public let length: Int
    }

    /// The Ed25519 signing key seed: salt empty, info "identity_key", 32 bytes.
    public static let identityKey = Label(salt: [], info: Array("identity_key".utf8), length: 32)
    /// The X25519 private scalar: salt empty, info "dh_key", 32 bytes.
    public static let dhKey = Label(salt: [], info: Array("dh_key".utf8), length: 32)
    /// The ML-KEM-768 `d || z` seed: salt empty, info "pq_key", 64 bytes.
    public static let pqKey = Label(salt: [], info: Array("pq_key".utf8), length: 64)
    /// The self-audience key: salt "ProximityApp_Journal_v1", info "journal_key", 32 bytes (spec 4.4).
    public static let journalKey = Label(salt: Array("ProximityApp_Journal_v1".utf8), info: Array("journal_key".utf8), length: 32)
    /// Kith's at-rest key for sealing decrypted content and session state in SQLite:
    /// salt "Kith_Storage_v1", info "storage_key", 32 bytes.
    public static let storageKey = Label(salt: Array("Kith_Storage_v1".utf8), info: Array("storage_key".utf8), length: 32)

    /// Kith's key for sealing the seeds of rotated keys (``RotatedKeySeeds``):
    /// salt "Kith_KeySeeds_v1", info "key_seeds", 32 bytes.
    public static let keySeedsKey = Label(salt: Array("Kith_KeySeeds_v1".utf8), info: Array("key_seeds".utf8), length: 32)

    /// The secp256k1 private key that signs this identity's invites (Convos-compatible, docs/INVITES.md):
    /// salt "Kith_Invite_v1", info "invite_key", 32 bytes, from the device seed (so it survives key rotations, like
    /// the feed id it is bound to).
    public static let inviteKey = Label(salt: Array("Kith_Invite_v1".utf8), info: Array("invite_key".utf8), length: 32)

    /// The key behind the secrets of this identity's claimed invite join codes (`JoinCodeClaim`, docs/INVITES.md):
    /// salt "Kith_JoinCodeClaim_v1", info "join_code_claim", 32 bytes, from the device seed, so `kith invite serve`
    /// re-derives a code's secret from the nonce in the code and nothing is stored.
    public static let joinCodeClaimKey = Label(salt: Array("Kith_JoinCodeClaim_v1".utf8), info: Array("join_code_claim".utf8), length: 32)

    /// Runs one derivation over the seed.
    public static func derive(_ label: Label, from seed: Seed) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: seed.key,
            salt: label.salt,
            info: label.info,
            outputByteCount: label.length
        )
    }
}
