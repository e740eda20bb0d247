import Crypto
import Foundation
import KithIdentity

/// The pairwise key of two contacts (spec 4.3).
///
///     contacts_key = HKDF-SHA256(
///         ikm  = X25519(my_dh_private, their_dh_public)          (32 bytes)
///         salt = "ProximityApp_ContactsKey_v1"                    (ASCII, 27 bytes)
///         info = lower_feed_id || higher_feed_id                  (ASCII, 43 + 43 bytes)
///         L    = 32)
///
/// The two feed ids are their 43-character base64url texts, ordered by byte-wise comparison of
/// those ASCII texts and concatenated without a separator. Both sides compute the same key.
public enum ContactsKey {
    /// The HKDF info: the sorted ASCII feed ids, concatenated.
    public static func info(_ first: FeedID, _ second: FeedID) -> [UInt8] {
        let (low, high) = first < second ? (first, second) : (second, first)
        return Array(low.string.utf8) + Array(high.string.utf8)
    }

    /// Derives the contacts key between `myFeed` (holding `myDHKey`) and `theirFeed`.
    public static func derive(
        myDHKey: Curve25519.KeyAgreement.PrivateKey,
        theirDHKey: Curve25519.KeyAgreement.PublicKey,
        myFeed: FeedID,
        theirFeed: FeedID
    ) throws(ContactsCipherError) -> SymmetricKey {
        let shared: SharedSecret
        do {
            shared = try myDHKey.sharedSecretFromKeyAgreement(with: theirDHKey)
        } catch {
            throw .keyAgreementFailed("\(error)")
        }
        let ikm = shared.withUnsafeBytes { SymmetricKey(data: Data($0)) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: ContactsLimits.contactsKeySalt, info: info(myFeed, theirFeed), outputByteCount: 32
        )
    }

    /// The key of the author's own slot, so the author can read its contacts posts from any device:
    /// HKDF-SHA256(ikm = journal_key, salt = empty, info = "Kith_ContactsSelfKey_v1", L = 32).
    public static func selfSlotKey(journalKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: journalKey, info: ContactsLimits.selfSlotKeyInfo, outputByteCount: 32)
    }
}
