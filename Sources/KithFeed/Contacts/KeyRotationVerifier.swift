import Crypto
import KithCanonical
import KithEd25519

/// The `previous_key_sig` rule of spec 5.5.
///
/// The signed bytes are the raw new keys concatenated: new_identity_key (32) || new_dh_key (32)
/// || new_pq_key (1,184), 1,248 bytes, signed with Ed25519 by the identity key the feed used
/// before the rotation.
public enum KeyRotationVerifier {
    /// The bytes `previous_key_sig` covers; nil when a key field is not valid base64url of its size.
    public static func signedBytes(_ rotation: KeyRotation) -> [UInt8]? {
        guard let identity = try? Base64URL.decode(rotation.newIdentityKey, expectedLength: 32),
              let dh = try? Base64URL.decode(rotation.newDHKey, expectedLength: 32),
              let pq = try? Base64URL.decode(rotation.newPQKey, expectedLength: FeedLimits.pqPublicKeyBytes) else { return nil }
        return identity + dh + pq
    }

    /// True when `previous_key_sig` is present and verifies under `oldIdentityKey`, and the new
    /// identity key meets the strict key rule (``newIdentityKey(_:)``): the one test of a
    /// rotation that ingest, verify and the contact tables share.
    public static func isVerified(_ rotation: KeyRotation, oldIdentityKey: Curve25519.Signing.PublicKey) -> Bool {
        guard newIdentityKey(rotation) != nil, let text = rotation.previousKeySignature,
              let signature = try? Base64URL.decode(text, expectedLength: 64),
              let bytes = signedBytes(rotation) else { return false }
        return oldIdentityKey.isValidStrictSignature(signature, for: bytes)
    }

    /// The new identity key of a rotation, if it parses and meets the strict key rule
    /// (docs/FEED-FORMAT.md section 2, "Ed25519 verification rule"): a rotation to a small-order
    /// or mixed-order key is never adopted.
    public static func newIdentityKey(_ rotation: KeyRotation) -> Curve25519.Signing.PublicKey? {
        guard let raw = try? Base64URL.decode(rotation.newIdentityKey, expectedLength: 32),
              (try? StrictEd25519.validatePublicKey(raw)) != nil else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }
}
