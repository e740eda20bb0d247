import Crypto
import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// What a linked, readable message changes beyond its own row (spec 5).
///
/// Called inside the ingest transaction, so an effect is durable exactly when its message is.
/// - tombstone: hides the target of the same feed and clears its content (row kept).
/// - profile_update: the contact's display_name / avatar_hash, latest sequence wins.
/// - contact_introduction: stages the introduced person as "introduced, not met" unless already
///   a contact (or the local identity); a card exchanged in person turns it into a contact.
/// - key_rotation: checks `previous_key_sig` with the key the feed used before; every rotation is
///   recorded in `key_rotations`; only a verified one enters `feed_keys` (from the next sequence)
///   and updates the contact's keys. An unverified rotation is flagged and never trusted.
enum ContentEffects {
    static func apply(_ content: Content, of envelope: Envelope, in db: Database, sealer: ContentSealer) throws {
        switch content {
        case .tombstone(let tombstone):
            // Only the author can retract: the target must be in the same feed (spec 5.7).
            try db.execute(
                cached: "UPDATE messages SET tombstoned = 1, content_json = NULL WHERE message_id = ? AND feed_id = ?",
                arguments: [tombstone.targetMessage.string, envelope.feedID.string]
            )
        case .profileUpdate(let update):
            try db.execute(
                cached: "UPDATE contacts SET display_name = ?, avatar_hash = ?, profile_sequence = ? WHERE feed_id = ? AND profile_sequence < ?",
                arguments: [update.displayName, update.avatarHash, envelope.sequence, envelope.feedID.string, envelope.sequence]
            )
        case .contactIntroduction(let introduction):
            try stage(introduction, of: envelope, in: db, sealer: sealer)
        case .keyRotation(let rotation):
            try record(rotation, of: envelope, in: db)
        default:
            break
        }
    }

    static func stage(_ introduction: ContactIntroduction, of envelope: Envelope, in db: Database, sealer: ContentSealer) throws {
        let introduced = introduction.introducedFeedID.string
        guard introduced != envelope.feedID.string else { return }
        let isLocal = try Int.fetchOne(db, cached: "SELECT 1 FROM feeds WHERE feed_id = ? AND is_local = 1", arguments: [introduced]) != nil
        let isContact = try Int.fetchOne(db, cached: "SELECT 1 FROM contacts WHERE feed_id = ?", arguments: [introduced]) != nil
        guard !isLocal, !isContact else { return }
        let note = introduction.note.map { sealer.seal(Array($0.utf8), context: "introduction:\(envelope.messageID.string)") }
        try db.execute(
            cached: """
                INSERT OR REPLACE INTO contact_introductions(introduced_feed_id, introducer_feed_id, dh_key_pub, pq_key_pub, note_sealed, message_id, introduced_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [introduced, envelope.feedID.string, introduction.introducedDHKey, introduction.introducedPQKey, note,
                        envelope.messageID.string, envelope.timestamp]
        )
    }

    static func record(_ rotation: KeyRotation, of envelope: Envelope, in db: Database) throws {
        let feed = envelope.feedID.string
        let keyText = try String.fetchOne(
            db, cached: "SELECT identity_key_pub FROM feed_keys WHERE feed_id = ? AND from_sequence <= ? AND verified = 1 ORDER BY from_sequence DESC LIMIT 1",
            arguments: [feed, envelope.sequence]
        ) ?? String.fetchOne(db, cached: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [feed])
        let oldKey = keyText.flatMap { try? PublicKeys.identityKey(storedBase64URL: $0) }
        let verified = oldKey.map { KeyRotationVerifier.isVerified(rotation, oldIdentityKey: $0) } ?? false
        try db.execute(
            cached: """
                INSERT OR IGNORE INTO key_rotations(message_id, feed_id, sequence, new_identity_key, new_dh_key, new_pq_key, verified, reason, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [envelope.messageID.string, feed, envelope.sequence, rotation.newIdentityKey, rotation.newDHKey, rotation.newPQKey,
                        verified ? 1 : 0, rotation.reason, FeedStore.nowMillis()]
        )
        guard verified else { return }
        try db.execute(
            cached: "INSERT OR REPLACE INTO feed_keys(feed_id, from_sequence, identity_key_pub, verified) VALUES (?, ?, ?, 1)",
            arguments: [feed, Int64(envelope.sequence) + 1, rotation.newIdentityKey]
        )
        try db.execute(
            cached: "UPDATE contacts SET identity_key_pub = ?, dh_key_pub = ?, pq_key_pub = ?, key_stale = 1 WHERE feed_id = ? AND dh_key_pub != ?",
            arguments: [rotation.newIdentityKey, rotation.newDHKey, rotation.newPQKey, feed, rotation.newDHKey]
        )
        try db.execute(
            cached: "UPDATE contacts SET identity_key_pub = ?, pq_key_pub = ? WHERE feed_id = ?",
            arguments: [rotation.newIdentityKey, rotation.newPQKey, feed]
        )
        if try Int.fetchOne(db, cached: "SELECT 1 FROM contacts WHERE feed_id = ?", arguments: [feed]) != nil {
            try db.execute(
                cached: "INSERT OR IGNORE INTO contact_dh_keys(feed_id, dh_key_pub, from_sequence) VALUES (?, ?, ?)",
                arguments: [feed, rotation.newDHKey, Int64(envelope.sequence) + 1]
            )
        }
    }
}
