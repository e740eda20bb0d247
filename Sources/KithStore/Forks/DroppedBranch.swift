import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// The part of a contact's feed copy that a fork switch removes: every entry held from the fork's sequence on.
///
/// What ingest derived from those entries, and what the switch does with it (docs/CONTINUITY.md section 3):
/// - `messages`, `message_stubs`, `withheld_messages`: removed (each entry is kept as fork evidence by the caller).
/// - `key_rotations`, `feed_keys`, `contact_dh_keys` and the contact's keys: undone; the contact gets back the keys
///   of the last kept verified rotation (or of their card) and `key_stale` when the dh key changes back.
/// - the profile (`profile_update`): re-applied from the newest kept one (or the card's name).
/// - `contact_introductions` staged by a dropped entry: removed; an earlier kept introduction of the same person
///   is staged again.
/// - refused (``irreversible(_:sealer:local:)``): direct and one-time messages to this device and group messages
///   (ratchet, prekey, pool, recovery and MLS state moved on with them), retractions of kept messages (their content
///   is cleared for good), and entries pruned here (no copy left to keep as evidence).
struct DroppedBranch {
    enum Kind {
        case message(type: String, audience: String, sealedContent: String?)
        case stub(reason: String)
    }

    struct Item {
        let id: String
        let sequence: UInt32
        /// The entry as received, kept as fork evidence; nil when no copy is held (a pruned stub).
        let bytes: String?
        let kind: Kind
    }

    /// The most entries one switch removes (and keeps as evidence) in its transaction.
    static let maxEntries = 20_000

    let feed: FeedID
    let sequence: UInt32
    let items: [Item]

    /// Reads the entries of `feed` held from `sequence` on, oldest first; a branch of more than ``maxEntries`` entries
    /// or `maxBytes` bytes of entries is refused before any of it is read.
    static func load(_ db: Database, feed: FeedID, from sequence: UInt32, maxBytes: Int) throws -> DroppedBranch {
        let arguments: StatementArguments = [feed.string, sequence]
        let size = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT COUNT(*) FROM messages WHERE feed_id = ?1 AND sequence >= ?2)
                     + (SELECT COUNT(*) FROM message_stubs WHERE feed_id = ?1 AND sequence >= ?2) AS count,
                       (SELECT COALESCE(SUM(LENGTH(CAST(envelope_json AS BLOB)) + COALESCE(LENGTH(CAST(content_json AS BLOB)), 0)), 0)
                        FROM messages WHERE feed_id = ?1 AND sequence >= ?2)
                     + (SELECT COALESCE(SUM(COALESCE(LENGTH(CAST(entry_json AS BLOB)), 0)), 0)
                        FROM message_stubs WHERE feed_id = ?1 AND sequence >= ?2)
                       AS bytes
                """,
            arguments: arguments)
        let count: Int = size?["count"] ?? 0
        let bytes: Int = size?["bytes"] ?? 0
        guard count <= maxEntries else { throw StoreError.forkSwitchRefused(.branchTooLong(count: count, limit: maxEntries)) }
        guard bytes <= maxBytes else { throw StoreError.forkSwitchRefused(.branchTooLarge(bytes: bytes, limit: maxBytes)) }
        var items: [Item] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT message_id, sequence, type, audience, envelope_json, content_json FROM messages WHERE feed_id = ?1 AND sequence >= ?2",
            arguments: arguments)
        {
            items.append(Item(
                id: row["message_id"], sequence: UInt32(clamping: row["sequence"] as Int64), bytes: row["envelope_json"],
                kind: .message(type: row["type"], audience: row["audience"], sealedContent: row["content_json"])))
        }
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT s.message_id, s.sequence, s.reason, COALESCE(s.entry_json, f.envelope_json) AS bytes
                FROM message_stubs s LEFT JOIN foreign_envelopes f ON f.message_id = s.message_id
                WHERE s.feed_id = ?1 AND s.sequence >= ?2
                """,
            arguments: arguments)
        {
            items.append(Item(
                id: row["message_id"], sequence: UInt32(clamping: row["sequence"] as Int64), bytes: row["bytes"], kind: .stub(reason: row["reason"])))
        }
        return DroppedBranch(feed: feed, sequence: sequence, items: items.sorted { $0.sequence < $1.sequence })
    }

    /// The dropped entries whose effects cannot be undone, one line each; empty when the switch may go ahead.
    /// - Parameters:
    ///   - local: the feed ids of this device.
    ///   - resettingDirectChannel: true when the caller forgets the direct channel with the contact
    ///     (``DirectChannelReset``): direct and one-time messages to this device are then dropped like the others.
    func irreversible(_ db: Database, sealer: ContentSealer, local: Set<String>, resettingDirectChannel: Bool = false) throws -> [String] {
        var found: [String] = []
        for item in items {
            switch item.kind {
            case .stub:
                if item.bytes == nil { found.append("#\(item.sequence) was pruned here (no copy left to keep as evidence)") }
            case .message(let type, let audience, let sealedContent):
                switch try? Audience(audience) {
                case .direct(let peer) where local.contains(peer.string) && !resettingDirectChannel:
                    found.append("#\(item.sequence) is a direct message to you (\(type)): the ratchet and what it carried moved on")
                case .oneTime(let peer) where local.contains(peer.string) && !resettingDirectChannel:
                    found.append("#\(item.sequence) is a one-time message to you: its pool key is spent")
                case .group:
                    found.append("#\(item.sequence) is a group message: MLS state cannot be un-processed")
                default:
                    break
                }
                if type == "tombstone", let target = Self.retractedTarget(item, sealedContent, sealer: sealer),
                   let kept = try Int64.fetchOne(
                       db, sql: "SELECT sequence FROM messages WHERE message_id = ? AND feed_id = ? AND sequence < ?",
                       arguments: [target, feed.string, sequence])
                {
                    found.append("#\(item.sequence) retracted the kept #\(kept), whose content is cleared for good")
                }
            }
        }
        return found
    }

    private static func retractedTarget(_ item: Item, _ sealedContent: String?, sealer: ContentSealer) -> String? {
        guard let sealedContent, let plain = try? sealer.open(sealedContent, context: item.id),
              case .tombstone(let tombstone)? = try? Content.parse(plain, envelopeType: "tombstone") else { return nil }
        return tombstone.targetMessage.string
    }

    /// True when a dropped entry is a direct or one-time message to one of `local`'s feeds.
    func reachesThisDevice(local: Set<String>) -> Bool {
        items.contains { item in
            guard case .message(_, let audience, _) = item.kind else { return false }
            switch try? Audience(audience) {
            case .direct(let peer), .oneTime(let peer): return local.contains(peer.string)
            default: return false
            }
        }
    }

    /// Removes the branch from the copy and undoes what its entries did (see the type's comment). Returns whether a
    /// verified key rotation was undone.
    func remove(_ db: Database, sealer: ContentSealer) throws -> Bool {
        let feedText = feed.string
        let rotations = try Row.fetchAll(
            db, sql: "SELECT sequence, new_identity_key, new_dh_key, new_pq_key, verified FROM key_rotations WHERE feed_id = ? ORDER BY sequence",
            arguments: [feedText])
        let keptVerified = rotations.filter { ($0["verified"] as Int64) != 0 && UInt32(clamping: $0["sequence"] as Int64) < sequence }
        let droppedVerified = rotations.filter { ($0["verified"] as Int64) != 0 && UInt32(clamping: $0["sequence"] as Int64) >= sequence }
        let contact = try Row.fetchOne(db, sql: "SELECT dh_key_pub, card, profile_sequence FROM contacts WHERE feed_id = ?", arguments: [feedText])
        // The keys to give the contact back, decided before anything changes (a refusal leaves the copy as it was).
        var restoredKeys: (identity: String, dh: String, pq: String)?
        if !droppedVerified.isEmpty, contact != nil {
            if let last = keptVerified.last {
                restoredKeys = (last["new_identity_key"], last["new_dh_key"], last["new_pq_key"])
            } else {
                let original = try String.fetchOne(db, sql: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [feedText])
                guard let text = contact?["card"] as String?, let card = try? ContactCard(text: text),
                      card.publicKeys.identityKeyString == original else {
                    throw StoreError.forkSwitchRefused(.contactKeysUnknown(feed: feedText))
                }
                restoredKeys = (card.publicKeys.identityKeyString, card.publicKeys.dhKeyString, card.publicKeys.pqKeyString)
            }
        }
        let restage = try String.fetchAll(
            db,
            sql: "SELECT introduced_feed_id FROM contact_introductions WHERE introducer_feed_id = ? AND message_id IN (SELECT message_id FROM messages WHERE feed_id = ? AND sequence >= ?)",
            arguments: [feedText, feedText, sequence])
        for item in items {
            try db.execute(sql: "DELETE FROM withheld_messages WHERE message_id = ?", arguments: [item.id])
            try db.execute(sql: "DELETE FROM contact_introductions WHERE introducer_feed_id = ? AND message_id = ?", arguments: [feedText, item.id])
        }
        try db.execute(sql: "DELETE FROM messages WHERE feed_id = ? AND sequence >= ?", arguments: [feedText, sequence])
        try db.execute(sql: "DELETE FROM message_stubs WHERE feed_id = ? AND sequence >= ?", arguments: [feedText, sequence])
        try db.execute(sql: "DELETE FROM key_rotations WHERE feed_id = ? AND sequence >= ?", arguments: [feedText, sequence])
        // A rotation at sequence s is in force from s + 1: every key the dropped rotations brought starts after the fork.
        try db.execute(sql: "DELETE FROM feed_keys WHERE feed_id = ? AND from_sequence > ?", arguments: [feedText, sequence])
        let keptDH = Set(keptVerified.map { $0["new_dh_key"] as String })
        for row in droppedVerified where !keptDH.contains(row["new_dh_key"] as String) {
            try db.execute(
                sql: "DELETE FROM contact_dh_keys WHERE feed_id = ? AND dh_key_pub = ? AND from_sequence > ?",
                arguments: [feedText, row["new_dh_key"] as String, sequence])
        }
        if let restoredKeys {
            try db.execute(
                sql: """
                    UPDATE contacts SET key_stale = CASE WHEN dh_key_pub != ?2 THEN 1 ELSE key_stale END,
                        identity_key_pub = ?1, dh_key_pub = ?2, pq_key_pub = ?3 WHERE feed_id = ?4
                    """,
                arguments: [restoredKeys.identity, restoredKeys.dh, restoredKeys.pq, feedText])
        }
        if let contact, (contact["profile_sequence"] as Int64) >= Int64(sequence) {
            try restoreProfile(db, card: contact["card"], sealer: sealer)
        }
        for introduced in restage { try restageIntroduction(of: introduced, in: db, sealer: sealer) }
        return !droppedVerified.isEmpty
    }

    /// The contact's name and avatar from the newest kept `profile_update`, else the card's name.
    private func restoreProfile(_ db: Database, card: String?, sealer: ContentSealer) throws {
        if let (update, at) = try FeedStore.latestProfile(db, feed: feed, sealer: sealer) {
            try db.execute(
                sql: "UPDATE contacts SET display_name = ?, avatar_hash = ?, profile_sequence = ? WHERE feed_id = ?",
                arguments: [update.displayName, update.avatarHash, at, feed.string])
        } else {
            let name = card.flatMap { try? ContactCard(text: $0) }.map(\.displayName).flatMap { $0.isEmpty ? nil : $0 }
            try db.execute(
                sql: "UPDATE contacts SET display_name = ?, avatar_hash = NULL, profile_sequence = -1 WHERE feed_id = ?",
                arguments: [name, feed.string])
        }
    }

    /// Stages again the newest kept introduction of `introduced` by this feed, if one is readable.
    private func restageIntroduction(of introduced: String, in db: Database, sealer: ContentSealer) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT message_id, envelope_json, content_json FROM messages
                WHERE feed_id = ? AND type = 'contact_introduction' AND content_json IS NOT NULL ORDER BY sequence DESC
                """,
            arguments: [feed.string])
        for row in rows {
            let id: String = row["message_id"]
            guard let plain = try? sealer.open(row["content_json"], context: id),
                  case .contactIntroduction(let introduction)? = try? Content.parse(plain, envelopeType: "contact_introduction"),
                  introduction.introducedFeedID.string == introduced,
                  let envelope = try? Envelope.parseV1(Array((row["envelope_json"] as String).utf8)) else { continue }
            try ContentEffects.stage(introduction, of: envelope, in: db, sealer: sealer)
            return
        }
    }
}
