import GRDB
import KithCanonical
import KithIdentity

/// The rule that decides which keys a contact card may bring (docs/FEED-FORMAT.md 11.1).
///
/// The keys of a feed are decided by its feed id and its verified `key_rotation` chain only: the
/// original key is the one whose SHA-256 is the feed id, and each verified rotation (its
/// `previous_key_sig` checked with the key before it) hands over to the next key. The chain's
/// *current key* is the newest verified `feed_keys` row, else the original key. A card is only a
/// claim, signed by the key it carries:
/// - card key = current key: a verified contact.
/// - otherwise, when this device already relies on the feed's keys (a verified contact, entries
///   of the feed held, a verified rotation, the local feed): refused with
///   ``StoreError/contactKeyConflict(feed:cardKey:chainKey:)``; nothing changes.
/// - otherwise (a first meeting with a rotated identity whose rotation is not held yet): an
///   unverified contact. It becomes verified exactly when rotation entries verified from the
///   original key reach its key; until then nothing is encrypted for it.
enum ContactKeyRule {
    /// What a card that passed the rule brings.
    struct Verdict: Equatable {
        /// The card's key is the feed's current verified key.
        var isVerified: Bool
        /// A contact row holding an unverified claim is replaced (its shown name goes with it).
        var replacesUnverifiedClaim: Bool
    }

    /// SQL for a feed's current verified identity key, for the contact row aliased `c`.
    static let chainKeyExpression = """
        COALESCE(
            (SELECT k.identity_key_pub FROM feed_keys k WHERE k.feed_id = c.feed_id AND k.verified = 1 ORDER BY k.from_sequence DESC LIMIT 1),
            (SELECT f.identity_key_pub FROM feeds f WHERE f.feed_id = c.feed_id))
        """

    /// SQL condition: the contact row `c` holds the key its feed's verified chain gives.
    static let verifiedCondition = "c.identity_key_pub IS \(chainKeyExpression)"

    /// Every contact column plus `key_verified` (0 or 1); append a `WHERE` on alias `c`.
    static let contactsSelect = "SELECT c.*, (\(verifiedCondition)) AS key_verified FROM contacts c"

    /// The current verified identity key (base64url) of a followed feed, or nil when not followed.
    static func chainKey(_ db: Database, feed: String) throws -> String? {
        try String.fetchOne(
            db, cached: "SELECT identity_key_pub FROM feed_keys WHERE feed_id = ? AND verified = 1 ORDER BY from_sequence DESC LIMIT 1", arguments: [feed]
        ) ?? String.fetchOne(db, cached: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [feed])
    }

    /// Applies the rule to a verified card; throws ``StoreError/contactKeyConflict(feed:cardKey:chainKey:)``.
    static func check(_ card: ContactCard, in db: Database) throws -> Verdict {
        let feed = card.feedID.string
        let cardKey = card.publicKeys.identityKeyString
        let chainKey = try chainKey(db, feed: feed) ?? Base64URL.encode(card.feedKey.rawRepresentation)
        let held = try String.fetchOne(db, cached: "SELECT identity_key_pub FROM contacts WHERE feed_id = ?", arguments: [feed])
        let heldIsVerified = held == chainKey
        if cardKey == chainKey {
            return Verdict(isVerified: true, replacesUnverifiedClaim: held != nil && !heldIsVerified)
        }
        // The same unverified claim again (a refreshed card): nothing new is trusted.
        if held == cardKey { return Verdict(isVerified: false, replacesUnverifiedClaim: false) }
        if try heldIsVerified || reliesOnKeys(db, feed: feed) {
            throw StoreError.contactKeyConflict(feed: feed, cardKey: cardKey, chainKey: chainKey)
        }
        return Verdict(isVerified: false, replacesUnverifiedClaim: held != nil)
    }

    /// True when the device already depends on the feed's keys beyond its feed id: the local
    /// feed, a verified rotation, or entries of the feed held.
    static func reliesOnKeys(_ db: Database, feed: String) throws -> Bool {
        try Bool.fetchOne(
            db,
            cached: """
                SELECT EXISTS(SELECT 1 FROM feeds WHERE feed_id = ?1 AND is_local = 1)
                    OR EXISTS(SELECT 1 FROM feed_keys WHERE feed_id = ?1 AND verified = 1)
                    OR EXISTS(SELECT 1 FROM messages WHERE feed_id = ?1)
                    OR EXISTS(SELECT 1 FROM message_stubs WHERE feed_id = ?1)
                """,
            arguments: [feed]
        ) ?? false
    }
}
