import Crypto
import Foundation
import GRDB
import KithCanonical
import KithEd25519
import KithFeed
import KithIdentity
import Logging

/// The feeds held on this device: ingest with chain rules, queries, export and GC.
///
/// Chain rules (docs/FEED-FORMAT.md, "Ingest"):
/// - A v1 envelope is verified (canonical bytes, fields, signature with the feed's key) before
///   anything is written. Message N is linked only when its `previous` is the id of the linked
///   message N-1; the linked part of a feed is always contiguous from 0.
/// - Entries ahead of a gap are held in `pending_entries` and linked, oldest first, as soon as
///   the gap fills. Because sync sends newest first, an older entry is also authenticated
///   backwards by a newer one: a self stub or a later-version envelope (neither carries a
///   verifiable signature) is linked only when the next message's signed `previous` equals its id.
/// - Content never blocks the chain: unknown types are not decrypted, content that breaks a rule
///   is not kept; either message is linked and withheld from readers (``WithheldContent``).
/// - Two validly signed, different envelopes for one (feed, sequence), or a signed `previous` that
///   contradicts a held message, are recorded in `fork_evidence`; the feed is flagged; nothing
///   already stored is overwritten.
/// - Re-ingesting anything already held is a no-op. Each call to ``ingest(_:decryptor:)`` is one
///   transaction: either the whole batch is durable or none of it is.
public final class FeedStore: Sendable {
    /// The underlying database (internal: other modules use the store's transaction-scoped API;
    /// tests reach it with `@testable import KithStore`).
    let database: DatabaseQueue
    let sealer: ContentSealer
    let limits: StoreLimits
    let logger = Logger(label: "kith.store")

    /// Opens a store over an opened database.
    public init(database: DatabaseQueue, sealer: ContentSealer, limits: StoreLimits = StoreLimits()) {
        self.database = database
        self.sealer = sealer
        self.limits = limits
    }

    /// Opens the database at `path` (nil: in memory) and a store over it.
    public convenience init(path: String?, storageKey: SymmetricKey, limits: StoreLimits = StoreLimits()) throws(StoreError) {
        self.init(database: try KithDatabase.open(path: path), sealer: ContentSealer(storageKey: storageKey), limits: limits)
    }

    // MARK: Feeds

    /// Starts following a feed whose identity key is known (the local one, a contact, or an imported key).
    /// Following an already followed feed is a no-op.
    /// - Throws: ``StoreError/invalidKey(_:)`` for a key outside the strict Ed25519 rule: keys are
    ///   checked here, where they enter the store, and trusted when read back.
    public func follow(identityKey: Curve25519.Signing.PublicKey, isLocal: Bool = false) throws(StoreError) {
        let feedID = FeedID(identityKey: identityKey)
        // A followed feed was validated when it was first followed (its id is the hash of this key): every import of
        // a known feed calls this, and the strict check costs as much as the rest of a one-entry import.
        let known = try read { db in try Bool.fetchOne(db, cached: "SELECT 1 FROM feeds WHERE feed_id = ?", arguments: [feedID.string]) ?? false }
        if known { return }
        do throws(Ed25519Error) {
            try StrictEd25519.validatePublicKey(identityKey.rawRepresentation)
        } catch {
            throw .invalidKey(error.description)
        }
        try write { db in
            try db.execute(
                cached: "INSERT OR IGNORE INTO feeds(feed_id, identity_key_pub, is_local, added_at) VALUES (?, ?, ?, ?)",
                arguments: [feedID.string, Base64URL.encode(identityKey.rawRepresentation), isLocal ? 1 : 0, Self.nowMillis()]
            )
        }
    }

    /// Every followed feed with its head and state.
    public func followedFeeds() throws(StoreError) -> [FollowedFeed] {
        // One statement for every feed: each head and pending count is an index probe.
        try read { db in
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT f.feed_id, f.is_local, f.forked,
                        (SELECT sequence FROM messages WHERE feed_id = f.feed_id ORDER BY sequence DESC LIMIT 1) AS message_seq,
                        (SELECT message_id FROM messages WHERE feed_id = f.feed_id ORDER BY sequence DESC LIMIT 1) AS message_id,
                        (SELECT sequence FROM message_stubs WHERE feed_id = f.feed_id ORDER BY sequence DESC LIMIT 1) AS stub_seq,
                        (SELECT message_id FROM message_stubs WHERE feed_id = f.feed_id ORDER BY sequence DESC LIMIT 1) AS stub_id,
                        (SELECT COUNT(*) FROM pending_entries WHERE feed_id = f.feed_id) AS pending
                    FROM feeds f ORDER BY f.is_local DESC, f.feed_id
                    """
            )
            return rows.compactMap { row -> FollowedFeed? in
                guard let feedID = try? FeedID(row["feed_id"] as String) else { return nil }
                var head: FeedHead?
                for (sequence, id) in [(row["message_seq"] as Int64?, row["message_id"] as String?), (row["stub_seq"] as Int64?, row["stub_id"] as String?)] {
                    guard let sequence, let id, let messageID = try? MessageID(id),
                          head.map({ Int64($0.sequence) < sequence }) ?? true else { continue }
                    head = FeedHead(sequence: UInt32(clamping: sequence), messageID: messageID)
                }
                return FollowedFeed(
                    feedID: feedID, isLocal: (row["is_local"] as Int64) != 0, isForked: (row["forked"] as Int64) != 0,
                    head: head, pendingCount: Int(row["pending"] as Int64)
                )
            }
        }
    }

    /// The linked head of a feed, or nil when nothing is held.
    public func head(of feedID: FeedID) throws(StoreError) -> FeedHead? {
        try read { db in try Self.head(db, feedID.string) }
    }

    /// The identity key a followed feed is verified with.
    public func identityKey(of feedID: FeedID) throws(StoreError) -> Curve25519.Signing.PublicKey? {
        try read { db in
            guard let text = try String.fetchOne(db, cached: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [feedID.string]) else { return nil }
            return try? PublicKeys.identityKey(storedBase64URL: text)
        }
    }

    // MARK: Ingest

    /// Ingests a batch of entries (envelopes, self stubs, later-version envelopes) in one transaction.
    ///
    /// Entries may come in any order; the result has one outcome per input.
    public func ingest(_ entries: [[UInt8]], decryptor: (any ContentDecryptor)? = nil) throws(StoreError) -> IngestReport {
        decryptor?.prepare(for: nil)
        return try write { db in
            try IngestSession.run(in: db, store: self, decryptor: decryptor, expecting: entries.count) { session in
                // Prepared a slice at a time, so the parsed entries of a slice stay in the CPU caches.
                var start = entries.startIndex
                while start < entries.endIndex {
                    let end = min(start + IngestSession.preparedSlice, entries.endIndex)
                    try session.ingest(contentsOf: try session.prepare(entries[start..<end]))
                    start = end
                }
            }
        }
    }

    // MARK: Reading

    /// Messages of one feed (or all feeds), newest first, with content decrypted from its sealed form.
    /// Withheld messages (invalid content, unknown types: ``WithheldContent``) are never returned.
    public func messages(feed: FeedID? = nil, limit: Int = 100) throws(StoreError) -> [StoredMessage] {
        try read { db in
            var sql = "SELECT message_id, feed_id, sequence, timestamp, type, audience, content_json, tombstoned, received_at FROM messages WHERE \(WithheldContent.shownCondition)"
            var arguments: StatementArguments = []
            if let feed {
                sql += " AND feed_id = ?"
                arguments = [feed.string]
            }
            sql += " ORDER BY timestamp DESC, received_at DESC LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in self.storedMessage(row) }
        }
    }

    /// One message by id; nil for a withheld message (invalid content, unknown type).
    public func message(_ id: MessageID) throws(StoreError) -> StoredMessage? {
        try read { db in
            try Row.fetchOne(
                db,
                cached: "SELECT message_id, feed_id, sequence, timestamp, type, audience, content_json, tombstoned, received_at FROM messages WHERE message_id = ? AND \(WithheldContent.shownCondition)",
                arguments: [id.string]
            ).flatMap { self.storedMessage($0) }
        }
    }

    /// The entries of a feed, oldest first, as canonical lines.
    ///
    /// - Parameter forPeer: when true (replication to someone else), self messages are replaced by
    ///   their signed stubs; when false (a backup for the author), they are exported whole.
    /// - Throws: ``StoreError/missingSelfStub(_:)`` when one of the author's self messages has no
    ///   signed stub yet (the account signs them with ``selfMessagesLackingStubs(feed:)`` first).
    public func export(feed: FeedID, forPeer: Bool = true) throws(StoreError) -> [[UInt8]] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT m.sequence, m.message_id, m.audience, m.envelope_json AS line, o.entry_json AS stub_line
                    FROM messages m LEFT JOIN own_self_stubs o ON o.message_id = m.message_id WHERE m.feed_id = ?
                    UNION ALL
                    SELECT sequence, message_id, 'self', entry_json, entry_json FROM message_stubs WHERE feed_id = ? AND reason = 'self'
                    ORDER BY sequence
                    """,
                arguments: [feed.string, feed.string]
            )
            return try rows.map { row -> [UInt8] in
                let line: String = row["line"]
                guard forPeer, (row["audience"] as String) == "self" else { return Array(line.utf8) }
                if let stub = row["stub_line"] as String? { return Array(stub.utf8) }
                throw StoreError.missingSelfStub(row["message_id"] as String)
            }
        }
    }

    /// The author's own self envelopes that have no signed stub yet (to be signed by the account).
    public func selfMessagesLackingStubs(feed: FeedID) throws(StoreError) -> [Envelope] {
        try read { db in
            try String.fetchAll(
                db,
                cached: """
                    SELECT m.envelope_json FROM messages m LEFT JOIN own_self_stubs o ON o.message_id = m.message_id
                    WHERE m.feed_id = ? AND m.audience = 'self' AND o.message_id IS NULL ORDER BY m.sequence
                    """,
                arguments: [feed.string]
            ).compactMap { try? Envelope.parseV1(Array($0.utf8)) }
        }
    }

    /// Stores signed stubs of the author's own self messages, to be replicated in their place.
    public func saveOwnStubs(_ stubs: [SelfStub]) throws(StoreError) {
        try write { db in
            for stub in stubs {
                try db.execute(
                    cached: "INSERT OR REPLACE INTO own_self_stubs(message_id, entry_json) VALUES (?, ?)",
                    arguments: [stub.messageID.string, String(decoding: stub.canonicalBytes, as: UTF8.self)]
                )
            }
        }
    }

    /// Recorded fork evidence of a feed.
    public func forkEvidence(feed: FeedID) throws(StoreError) -> [(sequence: UInt32, kept: String, conflicting: String, reason: String)] {
        try read { db in
            try Row.fetchAll(db, cached: "SELECT sequence, kept_message_id, conflicting_message_id, reason FROM fork_evidence WHERE feed_id = ? ORDER BY id", arguments: [feed.string]).map {
                (UInt32(clamping: $0["sequence"] as Int64), $0["kept_message_id"], $0["conflicting_message_id"], $0["reason"])
            }
        }
    }

    func storedMessage(_ row: Row) -> StoredMessage? {
        guard let id = try? MessageID(row["message_id"] as String), let feed = try? FeedID(row["feed_id"] as String) else { return nil }
        let type: String = row["type"]
        var content: Content?
        if let sealed = row["content_json"] as String?, let plain = try? sealer.open(sealed, context: id.string) {
            content = try? Content.parse(plain, envelopeType: type)
        }
        return StoredMessage(
            messageID: id, feedID: feed, sequence: UInt32(clamping: row["sequence"] as Int64), timestamp: row["timestamp"],
            type: type, audience: row["audience"], content: content, tombstoned: ((row["tombstoned"] as Int64?) ?? 0) != 0,
            receivedAt: row["received_at"]
        )
    }

    // MARK: Helpers

    static func head(_ db: Database, _ feed: String) throws -> FeedHead? {
        let row = try Row.fetchOne(
            db,
            cached: """
                SELECT sequence, message_id FROM (
                    SELECT sequence, message_id FROM messages WHERE feed_id = ?1
                    UNION ALL SELECT sequence, message_id FROM message_stubs WHERE feed_id = ?1
                ) ORDER BY sequence DESC LIMIT 1
                """,
            arguments: [feed]
        )
        guard let row, let id = try? MessageID(row["message_id"] as String) else { return nil }
        return FeedHead(sequence: UInt32(clamping: row["sequence"] as Int64), messageID: id)
    }

    static func nowMillis() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Runs `body` as a read: in a deferred transaction (one snapshot of the database) that is always rolled back, so
    /// nothing a read does persists; a read that changed rows throws ``StoreError/database(_:)``.
    ///
    /// Not GRDB's `DatabaseQueue.read`: on a queue it brackets every read with `PRAGMA query_only`, and a flag pragma
    /// expires every prepared statement of the connection, so each read made every cached statement (the ingest's and
    /// the group passes' included) be compiled again on its next use — about half the time of a one-entry import.
    static func readSnapshot<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        let changesBefore = db.totalChangesCount
        var result: T?
        try db.inTransaction(.deferred) {
            result = try body(db)
            return .rollback
        }
        guard db.totalChangesCount == changesBefore else { throw StoreError.database("a read changed the database (rolled back)") }
        guard let result else { throw StoreError.database("a read returned nothing") }
        return result
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try StoreError.catching { try database.write(body) }
    }

    /// ``write(_:)`` whose body may add ``CommitActions``: they run once the transaction has committed, never when it
    /// threw or rolled back.
    func write<T>(withCommitActions body: (Database, CommitActions) throws -> T) throws(StoreError) -> T {
        let actions = CommitActions()
        let result = try write { db in try body(db, actions) }
        actions.run()
        return result
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try StoreError.catching { try database.inDatabase { db in try Self.readSnapshot(db, body) } }
    }
}
