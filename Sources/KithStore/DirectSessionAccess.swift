import Foundation
import GRDB

/// Direct-message state inside one store transaction: sessions (sealed in `dr_sessions`), the
/// one-time prekeys this identity handed out (private halves sealed) and those it holds of its
/// contacts.
///
/// Handed to the closure of ``FeedStore/openDirectMessages(to:_:)`` and
/// ``FeedStore/withDirectState(_:)``; valid only during that call. Everything written through it
/// commits together with the message it concerns, or not at all.
public struct DirectSessionAccess {
    let db: Database
    let sealer: ContentSealer
    let now: Int64

    /// The unsealed session state with `peer`, if any.
    public func sessionState(peer: String) throws -> [UInt8]? {
        guard let sealed = try Data.fetchOne(db, sql: "SELECT session_state FROM dr_sessions WHERE peer_feed_id = ?", arguments: [peer]) else {
            return nil
        }
        return try sealer.open(String(decoding: sealed, as: UTF8.self), context: Self.sessionContext(peer))
    }

    /// Stores (replaces) the session state with `peer`, sealed under the storage key.
    ///
    /// The peer must be a contact (`dr_sessions.peer_feed_id` references `contacts`).
    public func saveSessionState(_ state: [UInt8], peer: String) throws {
        let sealed = Data(sealer.seal(state, context: Self.sessionContext(peer)).utf8)
        try db.execute(
            sql: "INSERT OR REPLACE INTO dr_sessions(peer_feed_id, session_state, last_updated) VALUES (?, ?, ?)",
            arguments: [peer, sealed, now]
        )
    }

    /// Deletes the session with `peer`.
    public func deleteSession(peer: String) throws {
        try db.execute(sql: "DELETE FROM dr_sessions WHERE peer_feed_id = ?", arguments: [peer])
    }

    /// A contact's current public keys (base64url), nil when `peer` is not a contact.
    public func contactKeys(peer: String) throws -> (identityKey: String, dhKey: String, pqKey: String)? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT identity_key_pub, dh_key_pub, pq_key_pub FROM contacts WHERE feed_id = ?", arguments: [peer]
        ) else { return nil }
        return (row["identity_key_pub"], row["dh_key_pub"], row["pq_key_pub"])
    }

    // MARK: Own one-time prekeys (handed to contacts)

    /// The private half (raw X25519 scalar) of the one-time prekey `id` handed to `peer`, if unused.
    public func ownPrekey(peer: String, id: UInt32) throws -> [UInt8]? {
        guard let sealed = try String.fetchOne(
            db, sql: "SELECT private_key_sealed FROM one_time_prekeys WHERE peer_feed_id = ? AND prekey_id = ?", arguments: [peer, Int64(id)]
        ) else { return nil }
        return try sealer.open(sealed, context: Self.prekeyContext(peer, id))
    }

    /// Deletes a used one-time prekey; returns false when it did not exist.
    @discardableResult
    public func consumeOwnPrekey(peer: String, id: UInt32) throws -> Bool {
        try db.execute(sql: "DELETE FROM one_time_prekeys WHERE peer_feed_id = ? AND prekey_id = ?", arguments: [peer, Int64(id)])
        return db.changesCount > 0
    }

    /// The first id of the next batch for `peer` (ids start at 1 and never repeat).
    public func nextOwnPrekeyID(peer: String) throws -> UInt32 {
        let next = try Int64.fetchOne(db, sql: "SELECT next_prekey_id FROM prekey_batches WHERE peer_feed_id = ?", arguments: [peer])
        return UInt32(clamping: next ?? 1)
    }

    /// Stores a freshly generated batch of one-time prekeys for `peer` (private halves sealed).
    public func storeOwnPrekeys(_ keys: [(id: UInt32, privateKey: [UInt8])], peer: String) throws {
        guard let last = keys.map(\.id).max() else { return }
        let statement = try db.cachedStatement(
            sql: "INSERT INTO one_time_prekeys(peer_feed_id, prekey_id, private_key_sealed, created_at) VALUES (?, ?, ?, ?)"
        )
        for key in keys {
            try statement.execute(arguments: [peer, Int64(key.id), sealer.seal(key.privateKey, context: Self.prekeyContext(peer, key.id)), now])
        }
        try db.execute(
            sql: """
                INSERT INTO prekey_batches(peer_feed_id, next_prekey_id, last_batch_size, issued_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(peer_feed_id) DO UPDATE SET next_prekey_id = excluded.next_prekey_id,
                    last_batch_size = excluded.last_batch_size, issued_at = excluded.issued_at
                """,
            arguments: [peer, Int64(last) + 1, keys.count, now]
        )
    }

    /// Unused one-time prekeys handed to `peer`.
    public func ownPrekeyCount(peer: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM one_time_prekeys WHERE peer_feed_id = ?", arguments: [peer]) ?? 0
    }

    // MARK: Contacts' one-time prekeys (held here)

    /// Stores one-time prekeys a contact handed this identity (ids already held are ignored).
    public func addPeerPrekeys(_ keys: [(id: UInt32, publicKey: [UInt8])], peer: String) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO peer_prekeys(peer_feed_id, prekey_id, public_key) VALUES (?, ?, ?)")
        for key in keys { try statement.execute(arguments: [peer, Int64(key.id), Data(key.publicKey)]) }
    }

    /// The contact's unused one-time prekey with the lowest id (not removed).
    public func firstPeerPrekey(peer: String) throws -> (id: UInt32, publicKey: [UInt8])? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT prekey_id, public_key FROM peer_prekeys WHERE peer_feed_id = ? ORDER BY prekey_id LIMIT 1", arguments: [peer]
        ) else { return nil }
        return (UInt32(clamping: row["prekey_id"] as Int64), Array(row["public_key"] as Data))
    }

    /// Removes a contact's one-time prekey once a session used it.
    public func removePeerPrekey(peer: String, id: UInt32) throws {
        try db.execute(sql: "DELETE FROM peer_prekeys WHERE peer_feed_id = ? AND prekey_id = ?", arguments: [peer, Int64(id)])
    }

    // MARK: Helpers

    static func sessionContext(_ peer: String) -> String { "dr_session:" + peer }
    static func prekeyContext(_ peer: String, _ id: UInt32) -> String { "one_time_prekey:\(peer)/\(id)" }
}
