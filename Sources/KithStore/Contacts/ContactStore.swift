import Crypto
import Foundation
import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// A contact: someone whose card was exchanged in person.
public struct ContactRecord: Sendable, Equatable {
    /// Their feed.
    public let feedID: FeedID
    /// The name given locally when the card was added (`--name`), if any.
    public let localName: String?
    /// The display name from their latest profile_update (or their card).
    public let displayName: String?
    /// base64url(SHA-256) of their avatar blob, from their latest profile_update.
    public let avatarHash: String?
    /// Their current Ed25519 identity key, base64url.
    public let identityKey: String
    /// Their current X25519 key, base64url.
    public let dhKey: String
    /// Their current ML-KEM-768 key, base64url.
    public let pqKey: String
    /// When the card was added (Unix seconds).
    public let addedAt: Int64
    /// Highest sequence of their feed held here (-1: none).
    public let lastSeenSequence: Int64
    /// True when a verified rotation changed their dh key and the contacts key must be re-derived.
    public let keyIsStale: Bool
    /// True when their identity key is the one their feed's verified key chain gives (feed id,
    /// then verified key_rotations). False for the card of a rotated identity whose rotation is
    /// not held yet: nothing is encrypted for them and none of their keys is trusted until the
    /// feed's rotation entries prove it (docs/FEED-FORMAT.md 11.1).
    public let keyIsVerified: Bool

    /// The name to show: local name, else display name, else the feed id prefix.
    public var shownName: String { localName ?? displayName ?? String(feedID.string.prefix(8)) }
}

/// Someone a contact introduced, not met in person yet (spec 5.4).
public struct IntroductionRecord: Sendable, Equatable {
    /// The introduced person.
    public let introducedFeedID: FeedID
    /// Who introduced them.
    public let introducerFeedID: FeedID
    /// Their X25519 key, base64url.
    public let dhKey: String
    /// Their ML-KEM-768 key, base64url.
    public let pqKey: String
    /// The introducer's note, if any.
    public let note: String?
    /// The introduction message.
    public let messageID: MessageID
}

/// A key rotation seen in a feed (spec 5.5).
public struct KeyRotationRecord: Sendable, Equatable {
    /// The feed.
    public let feedID: FeedID
    /// The rotation message's sequence; the new key signs from `sequence + 1`.
    public let sequence: UInt32
    /// The new identity key, base64url.
    public let newIdentityKey: String
    /// True when `previous_key_sig` verified with the old key; false rotations are never trusted.
    public let verified: Bool
    /// The stated reason.
    public let reason: String?
    /// When this device recorded it, Unix milliseconds (`key_rotations.recorded_at`).
    public let recordedAt: Int64
}

extension FeedStore {
    static func contactsKeyContext(_ feed: FeedID) -> String { "contacts_key:\(feed.string)" }

    /// Adds (or refreshes) a contact from a verified card, with the derived contacts key (sealed
    /// before it reaches SQLite). Follows their feed and clears any "introduced, not met" record.
    ///
    /// The keys of a feed are decided by its feed id and its verified `key_rotation` chain only
    /// (``ContactKeyRule``, docs/FEED-FORMAT.md 11.1): a card never writes `feed_keys` or
    /// `key_rotations`. A card whose identity key is the chain's current key makes a verified
    /// contact. A card of a rotated identity whose key the held chain does not reach yet is kept
    /// as an unverified contact (``ContactRecord/keyIsVerified`` false: nothing is encrypted for
    /// it) until the feed's rotation entries prove the key. One transaction: a refused card
    /// changes nothing.
    ///
    /// - Throws: ``StoreError/contactKeyConflict(feed:cardKey:chainKey:)`` when this device already
    ///   relies on the feed's keys (a verified contact, held entries, the local feed) and the card's
    ///   key is not the one its verified chain gives.
    public func addContact(card: ContactCard, contactsKey: SymmetricKey, localName: String?, addedAt: Int64) throws(StoreError) {
        let sealedKey = sealer.seal(contactsKey.withUnsafeBytes { Array($0) }, context: Self.contactsKeyContext(card.feedID))
        let keys = card.publicKeys
        try write { db in
            let verdict = try ContactKeyRule.check(card, in: db)
            try db.execute(
                cached: "INSERT OR IGNORE INTO feeds(feed_id, identity_key_pub, is_local, added_at) VALUES (?, ?, 0, ?)",
                arguments: [card.feedID.string, Base64URL.encode(card.feedKey.rawRepresentation), Self.nowMillis()]
            )
            try db.execute(
                cached: """
                    INSERT INTO contacts(feed_id, display_name, identity_key_pub, dh_key_pub, pq_key_pub, contacts_key, added_at, local_name, card, key_stale)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)
                    ON CONFLICT(feed_id) DO UPDATE SET identity_key_pub = excluded.identity_key_pub, dh_key_pub = excluded.dh_key_pub,
                        pq_key_pub = excluded.pq_key_pub, contacts_key = excluded.contacts_key, card = excluded.card, key_stale = 0,
                        local_name = COALESCE(excluded.local_name, contacts.local_name),
                        display_name = CASE WHEN ?10 THEN excluded.display_name ELSE COALESCE(contacts.display_name, excluded.display_name) END
                    """,
                arguments: [card.feedID.string, card.displayName.isEmpty ? nil : card.displayName, keys.identityKeyString, keys.dhKeyString,
                            keys.pqKeyString, sealedKey, addedAt, localName, card.text, verdict.replacesUnverifiedClaim]
            )
            if verdict.isVerified {
                let next = (try Int64.fetchOne(db, cached: "SELECT MAX(sequence) FROM messages WHERE feed_id = ?", arguments: [card.feedID.string]) ?? -1) + 1
                try db.execute(
                    cached: "INSERT OR IGNORE INTO contact_dh_keys(feed_id, dh_key_pub, from_sequence) VALUES (?, ?, ?)",
                    arguments: [card.feedID.string, keys.dhKeyString, next]
                )
            }
            try db.execute(cached: "DELETE FROM contact_introductions WHERE introduced_feed_id = ?", arguments: [card.feedID.string])
            try db.execute(cached: "DELETE FROM pending_contacts WHERE feed_id = ?", arguments: [card.feedID.string])
            try Self.applyLatestProfile(db, feed: card.feedID, sealer: sealer)
        }
    }

    /// Removes a contact: their key is deleted, so no later message is encrypted for them. Their
    /// feed stays followed and what was already stored stays. Returns false when not a contact.
    @discardableResult
    public func removeContact(_ feedID: FeedID) throws(StoreError) -> Bool {
        try write { db in
            // Sessions, prekeys both ways, the push tokens they handed over, and the KeyPackages made for them (they can
            // no longer add this identity) and theirs.
            try DirectChannelReset.forgetSessionsAndKeys(of: feedID.string, in: db)
            try db.execute(cached: "DELETE FROM contact_dh_keys WHERE feed_id = ?", arguments: [feedID.string])
            // Push: the contact's tokens are revoked at the gateway by the caller (pendingPushRevocations).
            try PushTokenRows.revokeIssued(to: feedID.string, in: db)
            try db.execute(cached: "DELETE FROM contacts WHERE feed_id = ?", arguments: [feedID.string])
            return db.changesCount > 0
        }
    }

    /// Every contact, by shown name.
    public func contacts() throws(StoreError) -> [ContactRecord] {
        try read { db in
            try Row.fetchAll(db, cached: ContactKeyRule.contactsSelect).compactMap(Self.contactRecord)
        }.sorted { $0.shownName.lowercased() < $1.shownName.lowercased() }
    }

    /// Contacts whose contacts key a verified dh rotation made stale.
    public func staleContacts() throws(StoreError) -> [ContactRecord] {
        try read { db in
            try Row.fetchAll(db, cached: ContactKeyRule.contactsSelect + " WHERE c.key_stale = 1").compactMap(Self.contactRecord)
        }
    }

    /// Current identity keys (base64url) of every verified contact, for verifying their rotations.
    public func contactIdentityKeys() throws(StoreError) -> [FeedID: String] {
        try read { db in
            var keys: [FeedID: String] = [:]
            for row in try Row.fetchAll(db, cached: ContactKeyRule.contactsSelect + " WHERE " + ContactKeyRule.verifiedCondition) {
                if let feed = try? FeedID(row["feed_id"] as String) { keys[feed] = row["identity_key_pub"] }
            }
            return keys
        }
    }

    /// One contact by feed id.
    public func contact(_ feedID: FeedID) throws(StoreError) -> ContactRecord? {
        try read { db in
            try Row.fetchOne(db, cached: ContactKeyRule.contactsSelect + " WHERE c.feed_id = ?", arguments: [feedID.string]).flatMap(Self.contactRecord)
        }
    }

    /// Finds a contact by feed id, local name or display name (case-insensitive names).
    /// Throws when a name matches more than one contact.
    public func resolveContact(_ text: String) throws(StoreError) -> ContactRecord? {
        if let feed = try? FeedID(text), let record = try contact(feed) { return record }
        let all = try contacts()
        let wanted = text.lowercased()
        let byLocal = all.filter { $0.localName?.lowercased() == wanted }
        let matches = byLocal.isEmpty ? all.filter { $0.displayName?.lowercased() == wanted } : byLocal
        if matches.count > 1 {
            throw .database("'\(text)' names \(matches.count) contacts; use the feed id")
        }
        return matches.first
    }

    /// The sealed contacts keys of all verified contacts whose key is current, opened (an
    /// unverified contact gets nothing encrypted for it).
    public func contactsKeys() throws(StoreError) -> [(feedID: FeedID, key: SymmetricKey)] {
        let rows: [(String, String)] = try read { db in
            try Row.fetchAll(db, cached: ContactKeyRule.contactsSelect + " WHERE c.key_stale = 0 AND " + ContactKeyRule.verifiedCondition)
                .map { ($0["feed_id"], $0["contacts_key"]) }
        }
        var keys: [(FeedID, SymmetricKey)] = []
        keys.reserveCapacity(rows.count)
        for (feed, sealed) in rows {
            guard let feedID = try? FeedID(feed) else { continue }
            let raw = try sealer.open(sealed, context: Self.contactsKeyContext(feedID))
            keys.append((feedID, SymmetricKey(data: raw)))
        }
        return keys
    }

    /// Replaces a contact's contacts key (after their verified dh rotation) and clears `key_stale`.
    public func updateContactsKey(_ feedID: FeedID, key: SymmetricKey) throws(StoreError) {
        let sealedKey = sealer.seal(key.withUnsafeBytes { Array($0) }, context: Self.contactsKeyContext(feedID))
        try write { db in
            try db.execute(cached: "UPDATE contacts SET contacts_key = ?, key_stale = 0 WHERE feed_id = ?", arguments: [sealedKey, feedID.string])
        }
    }

    /// Every dh key each contact has used, newest first (to read posts from before a rotation).
    public func contactDHKeys() throws(StoreError) -> [FeedID: [String]] {
        try read { db in
            var keys: [FeedID: [String]] = [:]
            for row in try Row.fetchAll(db, cached: "SELECT feed_id, dh_key_pub FROM contact_dh_keys ORDER BY from_sequence DESC") {
                guard let feed = try? FeedID(row["feed_id"] as String) else { continue }
                keys[feed, default: []].append(row["dh_key_pub"])
            }
            return keys
        }
    }

    /// People introduced by contacts and not met yet.
    public func introductions() throws(StoreError) -> [IntroductionRecord] {
        let rows = try read { db in try Row.fetchAll(db, cached: "SELECT * FROM contact_introductions ORDER BY introduced_at") }
        return rows.compactMap { row in
            guard let introduced = try? FeedID(row["introduced_feed_id"] as String),
                  let introducer = try? FeedID(row["introducer_feed_id"] as String),
                  let id = try? MessageID(row["message_id"] as String) else { return nil }
            let note = (row["note_sealed"] as String?).flatMap { try? sealer.open($0, context: "introduction:\(id.string)") }
            return IntroductionRecord(
                introducedFeedID: introduced, introducerFeedID: introducer, dhKey: row["dh_key_pub"], pqKey: row["pq_key_pub"],
                note: note.map { String(decoding: $0, as: UTF8.self) }, messageID: id
            )
        }
    }

    /// Rotations seen (all feeds, or one), oldest first.
    public func keyRotations(feed: FeedID? = nil) throws(StoreError) -> [KeyRotationRecord] {
        try read { db in
            let rows = try Row.fetchAll(
                db, cached: "SELECT * FROM key_rotations WHERE ?1 IS NULL OR feed_id = ?1 ORDER BY feed_id, sequence", arguments: [feed?.string]
            )
            return rows.compactMap { row in
                guard let feedID = try? FeedID(row["feed_id"] as String) else { return nil }
                return KeyRotationRecord(
                    feedID: feedID, sequence: UInt32(clamping: row["sequence"] as Int64), newIdentityKey: row["new_identity_key"],
                    verified: (row["verified"] as Int64) != 0, reason: row["reason"], recordedAt: row["recorded_at"]
                )
            }
        }
    }

    /// The latest profile (display name, avatar hash) held for any feed, from its newest readable profile_update.
    public func latestProfile(of feedID: FeedID) throws(StoreError) -> ProfileUpdate? {
        try read { db in try Self.latestProfile(db, feed: feedID, sealer: sealer)?.update }
    }

    /// Decrypts messages of `feed` that were stored opaque (for example imported before the
    /// author became a contact), oldest first, sealing the content and applying its effects.
    /// Returns how many became readable. Tombstoned messages stay cleared.
    @discardableResult
    public func decryptHeldMessages(of feed: FeedID, decryptor: any ContentDecryptor) throws(StoreError) -> Int {
        try write { db in
            let rows = try Row.fetchAll(
                db,
                cached: "SELECT envelope_json FROM messages WHERE feed_id = ? AND content_json IS NULL AND tombstoned = 0 ORDER BY sequence",
                arguments: [feed.string]
            )
            var opened = 0
            let now = FeedStore.nowMillis()
            for row in rows {
                // The rule of ingest (docs section 7 rules 8-9): an unknown type is never
                // decrypted; readable content that breaks a rule is withheld, never kept.
                guard let envelope = try? Envelope.parseV1(Array((row["envelope_json"] as String).utf8)),
                      Content.isKnownType(envelope.type),
                      let plain = try? decryptor.decrypt(envelope) else { continue }
                let content: Content
                do throws(FeedError) {
                    content = try Content.parse(plain, envelopeType: envelope.type)
                } catch {
                    try WithheldContent.record(.invalidContent, envelope, code: error.code, in: db, now: now)
                    continue
                }
                try db.execute(
                    cached: "UPDATE messages SET content_json = ? WHERE message_id = ?",
                    arguments: [sealer.seal(plain, context: envelope.messageID.string), envelope.messageID.string]
                )
                try ContentEffects.apply(content, of: envelope, in: db, sealer: sealer)
                opened += 1
            }
            return opened
        }
    }

    // MARK: Helpers

    static func latestProfile(_ db: Database, feed: FeedID, sealer: ContentSealer) throws -> (update: ProfileUpdate, sequence: Int64)? {
        let rows = try Row.fetchAll(
            db,
            cached: "SELECT message_id, sequence, content_json FROM messages WHERE feed_id = ? AND type = 'profile_update' AND content_json IS NOT NULL ORDER BY sequence DESC",
            arguments: [feed.string]
        )
        for row in rows {
            let id: String = row["message_id"]
            guard let plain = try? sealer.open(row["content_json"], context: id),
                  case .profileUpdate(let update)? = try? Content.parse(plain, envelopeType: "profile_update") else { continue }
            return (update, row["sequence"])
        }
        return nil
    }

    static func applyLatestProfile(_ db: Database, feed: FeedID, sealer: ContentSealer) throws {
        guard let (update, sequence) = try latestProfile(db, feed: feed, sealer: sealer) else { return }
        try db.execute(
            cached: "UPDATE contacts SET display_name = ?, avatar_hash = ?, profile_sequence = ? WHERE feed_id = ? AND profile_sequence < ?",
            arguments: [update.displayName, update.avatarHash, sequence, feed.string, sequence]
        )
    }

    static func contactRecord(_ row: Row) -> ContactRecord? {
        guard let feed = try? FeedID(row["feed_id"] as String) else { return nil }
        return ContactRecord(
            feedID: feed, localName: row["local_name"], displayName: row["display_name"], avatarHash: row["avatar_hash"],
            identityKey: row["identity_key_pub"], dhKey: row["dh_key_pub"], pqKey: row["pq_key_pub"], addedAt: row["added_at"],
            lastSeenSequence: (row["last_seen_seq"] as Int64?) ?? -1, keyIsStale: ((row["key_stale"] as Int64?) ?? 0) != 0,
            keyIsVerified: ((row["key_verified"] as Int64?) ?? 0) != 0
        )
    }
}
