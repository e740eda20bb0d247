import Foundation
import GRDB
import KithFeed
import KithIdentity

/// A direct message that failed to decrypt for good, and why.
public struct DirectFailure: Sendable, Equatable {
    /// The message.
    public let messageID: MessageID
    /// The error, as text.
    public let reason: String
}

/// What one pass over the undecrypted direct messages did.
public struct DirectOpenReport: Sendable, Equatable {
    /// Messages decrypted and stored (content sealed) in this pass.
    public var opened: [MessageID] = []
    /// Messages left for a later pass (not readable yet, e.g. the author is not a contact yet).
    public var waiting: Int = 0
    /// Messages that failed for good in this pass; recorded and not retried.
    public var failed: [DirectFailure] = []

    /// Creates an empty report.
    public init() {}
}

/// One-time prekey pools with one contact.
public struct PrekeyPoolRecord: Sendable, Equatable {
    /// The contact.
    public let peer: FeedID
    /// Unused prekeys this identity handed the contact.
    public let handedRemaining: Int
    /// Size of the last batch handed to the contact (0: none yet).
    public let lastBatchSize: Int
    /// The contact's unused prekeys held here.
    public let held: Int
    /// True when a direct session with the contact exists.
    public let hasSession: Bool

}

extension FeedStore {
    /// Runs `body` in one write transaction with access to the direct-message state.
    public func withDirectState<T>(_ body: (DirectSessionAccess) throws -> T) throws(StoreError) -> T {
        try write(withCommitActions: { db, actions in try body(DirectSessionAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: actions)) })
    }

    /// Decrypts the linked direct messages addressed to `local` that are still opaque, in feed
    /// and sequence order, each exactly once.
    ///
    /// For every message `open` gets the envelope and the transaction's ``DirectSessionAccess``;
    /// it returns the content plaintext (after saving the advanced session through the access),
    /// nil to leave the message for a later pass, or throws to record a permanent failure. Each
    /// message runs in its own savepoint: a throw undoes what `open` wrote for it. The content is
    /// sealed and its effects applied in the same transaction as the session update, so a crash
    /// either keeps both or neither (the message is then decrypted again, with the same keys).
    public func openDirectMessages(
        to local: FeedID, _ open: (Envelope, DirectSessionAccess) throws -> [UInt8]?
    ) throws(StoreError) -> DirectOpenReport {
        try write(withCommitActions: { db, actions in
            let access = DirectSessionAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: actions)
            return try openAddressed(.direct, to: local, in: db, now: access.now) { envelope in try open(envelope, access) }
        })
    }

    /// The audiences addressed to one feed whose messages are opened after they are stored; the
    /// raw value is the literal pattern of the partial index that serves the query.
    enum AddressedAudience: String {
        /// `direct:{feed_id}` (index `idx_messages_direct_inbox`).
        case direct = "direct:"
        /// `otk:{feed_id}` (index `idx_messages_otk_inbox`).
        case oneTime = "otk:"
    }

    /// Whether any linked message addressed to `local` waits to be opened (the read that lets a pass
    /// with nothing to do skip its write transaction).
    func hasUnopened(_ kind: AddressedAudience, to local: FeedID, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            cached: """
                SELECT EXISTS(SELECT 1 FROM messages
                WHERE audience = ? AND content_json IS NULL AND tombstoned = 0 AND audience LIKE '\(kind.rawValue)%'
                  AND message_id NOT IN (SELECT message_id FROM direct_failures) AND \(WithheldContent.shownCondition))
                """,
            arguments: [kind.rawValue + local.string]
        ) ?? false
    }

    /// The loop behind ``openDirectMessages(to:_:)`` and ``openOneTimeMessages(to:_:)``: every
    /// linked message addressed to `local` with no content yet, each in its own savepoint.
    func openAddressed(_ kind: AddressedAudience, to local: FeedID, in db: Database, now: Int64, _ open: (Envelope) throws -> [UInt8]?) throws -> DirectOpenReport {
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT message_id, envelope_json FROM messages
                    WHERE audience = ? AND content_json IS NULL AND tombstoned = 0 AND audience LIKE '\(kind.rawValue)%'
                      AND message_id NOT IN (SELECT message_id FROM direct_failures) AND \(WithheldContent.shownCondition)
                    ORDER BY feed_id, sequence
                    """,
                arguments: [kind.rawValue + local.string]
            )
            var report = DirectOpenReport()
            for row in rows {
                let id: String = row["message_id"]
                guard let messageID = try? MessageID(id) else { continue }
                var failure: String?
                var opened = false
                try db.inSavepoint {
                    do {
                        let envelope = try Envelope.parseV1(Array((row["envelope_json"] as String).utf8))
                        guard let plain = try open(envelope) else { return .rollback }
                        let content: Content
                        do throws(FeedError) {
                            content = try Content.parse(plain, envelopeType: envelope.type)
                        } catch {
                            // Decrypted (the session advanced and stays so) but not showable:
                            // withheld like any invalid content (docs section 7 rule 8), never retried.
                            try WithheldContent.record(.invalidContent, envelope, code: error.code, in: db, now: now)
                            failure = error.description
                            return .commit
                        }
                        try db.execute(
                            cached: "UPDATE messages SET content_json = ? WHERE message_id = ?",
                            arguments: [sealer.seal(plain, context: id), id]
                        )
                        try ContentEffects.apply(content, of: envelope, in: db, sealer: sealer)
                        opened = true
                        return .commit
                    } catch {
                        failure = "\(error)"
                        return .rollback
                    }
                }
                if let failure {
                    try db.execute(
                        cached: "INSERT OR REPLACE INTO direct_failures(message_id, reason, failed_at) VALUES (?, ?, ?)",
                        arguments: [id, failure, Self.nowMillis()]
                    )
                    report.failed.append(DirectFailure(messageID: messageID, reason: failure))
                } else if opened {
                    report.opened.append(messageID)
                } else {
                    report.waiting += 1
                }
            }
            return report
    }

    /// Direct messages that failed to decrypt for good, with their reasons.
    public func directFailures() throws(StoreError) -> [DirectFailure] {
        try read { db in
            try Row.fetchAll(db, cached: "SELECT message_id, reason FROM direct_failures ORDER BY failed_at").compactMap { row in
                guard let id = try? MessageID(row["message_id"] as String) else { return nil }
                return DirectFailure(messageID: id, reason: row["reason"])
            }
        }
    }

    /// The direct conversation between `local` and `peer`, oldest first: messages of either feed
    /// whose audience is the other, direct (`direct:`) or one-time (`otk:`, the inner circle).
    public func conversation(between local: FeedID, and peer: FeedID, limit: Int = 100) throws(StoreError) -> [StoredMessage] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT * FROM (
                        SELECT message_id, feed_id, sequence, timestamp, type, audience, content_json, tombstoned, received_at FROM messages
                        WHERE ((feed_id = ?1 AND audience IN (?2, ?6)) OR (feed_id = ?3 AND audience IN (?4, ?7))) AND \(WithheldContent.shownCondition)
                        ORDER BY timestamp DESC, received_at DESC LIMIT ?5
                    ) ORDER BY timestamp, received_at
                    """,
                arguments: [local.string, "direct:" + peer.string, peer.string, "direct:" + local.string, limit, "otk:" + peer.string, "otk:" + local.string]
            )
            return rows.compactMap { self.storedMessage($0) }
        }
    }

    /// One-time prekey pools with every contact.
    public func prekeyPools() throws(StoreError) -> [PrekeyPoolRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                cached: """
                    SELECT c.feed_id,
                        (SELECT COUNT(*) FROM one_time_prekeys o WHERE o.peer_feed_id = c.feed_id) AS handed,
                        COALESCE((SELECT last_batch_size FROM prekey_batches b WHERE b.peer_feed_id = c.feed_id), 0) AS last_batch,
                        (SELECT COUNT(*) FROM peer_prekeys p WHERE p.peer_feed_id = c.feed_id) AS held,
                        EXISTS(SELECT 1 FROM dr_sessions s WHERE s.peer_feed_id = c.feed_id) AS has_session
                    FROM contacts c ORDER BY c.added_at, c.feed_id
                    """
            ).compactMap { row in
                guard let feed = try? FeedID(row["feed_id"] as String) else { return nil }
                return PrekeyPoolRecord(
                    peer: feed, handedRemaining: row["handed"], lastBatchSize: row["last_batch"], held: row["held"],
                    hasSession: (row["has_session"] as Int64) != 0
                )
            }
        }
    }
}
