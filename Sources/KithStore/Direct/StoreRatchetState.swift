import Crypto
import Foundation
import GRDB
import KithIdentity
import KithRatchet

/// KithRatchet's ``SessionStore``, ``PrekeyStore`` and ``PeerPrekeyStore`` on the SQLite tables
/// `dr_sessions` (records sealed), `one_time_prekeys` (private halves sealed), `prekey_batches`
/// and `peer_prekeys`, inside one write transaction.
///
/// Created per transaction (see ``DirectSessionAccess/ratchet``) and valid only during it:
/// everything written through it commits with the transaction, or is rolled back with it.
/// Storage failures surface as ``RatchetError/storage(_:)``.
public struct StoreRatchetState {
    let db: Database
    let sealer: ContentSealer
    let now: Int64

    /// Wraps the current write transaction.
    init(db: Database, sealer: ContentSealer, now: Int64) {
        self.db = db
        self.sealer = sealer
        self.now = now
    }

    /// Runs a storage step, reporting its failure as ``RatchetError/storage(_:)``.
    private func storage<T>(_ what: String, _ body: () throws -> T) throws(RatchetError) -> T {
        do {
            return try body()
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .storage("\(what): \(error)")
        }
    }

    static func sessionContext(_ peer: FeedID) -> String { "dr_session:" + peer.string }
    static func prekeyContext(_ peer: FeedID, _ id: UInt32) -> String { "one_time_prekey:\(peer.string)/\(id)" }
}

// MARK: Sessions

extension StoreRatchetState: SessionStore {
    /// The unsealed record with `peer`, if any.
    public func sessionRecord(with peer: FeedID) throws(RatchetError) -> SessionRecord? {
        let bytes = try storage("reading the session with \(peer)") { () throws -> [UInt8]? in
            guard let sealed = try Data.fetchOne(
                db, cached: "SELECT session_state FROM dr_sessions WHERE peer_feed_id = ?", arguments: [peer.string]
            ) else { return nil }
            return try sealer.open(String(decoding: sealed, as: UTF8.self), context: Self.sessionContext(peer))
        }
        return try bytes.map { bytes throws(RatchetError) in try SessionRecord.decode(bytes) }
    }

    /// Stores (replaces) the record with `peer`, sealed under the storage key. The peer must be a
    /// contact (`dr_sessions.peer_feed_id` references `contacts`).
    public func saveSessionRecord(_ record: SessionRecord, with peer: FeedID) throws(RatchetError) {
        let sealed = Data(sealer.seal(record.encoded, context: Self.sessionContext(peer)).utf8)
        try storage("saving the session with \(peer)") {
            try db.execute(
                cached: "INSERT OR REPLACE INTO dr_sessions(peer_feed_id, session_state, last_updated) VALUES (?, ?, ?)",
                arguments: [peer.string, sealed, now]
            )
        }
    }

    /// Deletes the record with `peer`.
    public func deleteSessionRecord(with peer: FeedID) throws(RatchetError) {
        try storage("deleting the session with \(peer)") {
            try db.execute(cached: "DELETE FROM dr_sessions WHERE peer_feed_id = ?", arguments: [peer.string])
        }
    }
}

// MARK: Own one-time prekeys (handed to contacts)

extension StoreRatchetState: PrekeyStore {
    /// Generates `count` one-time prekeys for `peer`, stores their private halves sealed and
    /// returns the public batch; ids continue after the last batch (starting at 1).
    public func generateOneTimePrekeys(count: Int, forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyBatch {
        let limit = RatchetConstants.maxOneTimePrekeys
        let (held, first) = try storage("reading the prekey pool of \(peer)") { () throws -> (Int, Int64) in
            let held = try Int.fetchOne(db, cached: "SELECT COUNT(*) FROM one_time_prekeys WHERE peer_feed_id = ?", arguments: [peer.string]) ?? 0
            let next = try Int64.fetchOne(db, cached: "SELECT next_prekey_id FROM prekey_batches WHERE peer_feed_id = ?", arguments: [peer.string])
            return (held, next ?? 1)
        }
        guard count >= 1, held + count <= limit, first >= 1, first + Int64(count) <= Int64(UInt32.max) else {
            throw .prekeyPoolFull(limit: limit)
        }
        var entries: [OneTimePrekeyPublic] = []
        entries.reserveCapacity(count)
        try storage("storing prekeys for \(peer)") {
            let statement = try db.cachedStatement(
                sql: "INSERT INTO one_time_prekeys(peer_feed_id, prekey_id, private_key_sealed, created_at) VALUES (?, ?, ?, ?)"
            )
            for offset in 0..<Int64(count) {
                let id = UInt32(first + offset)
                let key = Curve25519.KeyAgreement.PrivateKey()
                let sealed = sealer.seal(Array(key.rawRepresentation), context: Self.prekeyContext(peer, id))
                try statement.execute(arguments: [peer.string, Int64(id), sealed, now])
                entries.append(OneTimePrekeyPublic(id: id, publicKey: Array(key.publicKey.rawRepresentation)))
            }
            try db.execute(
                cached: """
                    INSERT INTO prekey_batches(peer_feed_id, next_prekey_id, last_batch_size, issued_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(peer_feed_id) DO UPDATE SET next_prekey_id = excluded.next_prekey_id,
                        last_batch_size = excluded.last_batch_size, issued_at = excluded.issued_at
                    """,
                arguments: [peer.string, first + Int64(count), count, now]
            )
        }
        return try OneTimePrekeyBatch(entries: entries)
    }

    /// The private half of the unused one-time prekey `id` handed to `peer`, if any.
    public func oneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey? {
        let raw = try storage("reading prekey \(id) of \(peer)") { () throws -> [UInt8]? in
            guard let sealed = try String.fetchOne(
                db, cached: "SELECT private_key_sealed FROM one_time_prekeys WHERE peer_feed_id = ? AND prekey_id = ?",
                arguments: [peer.string, Int64(id)]
            ) else { return nil }
            return try sealer.open(sealed, context: Self.prekeyContext(peer, id))
        }
        return try raw.map { raw throws(RatchetError) in try X25519Agreement.privateKey(raw) }
    }

    /// Returns the private half of prekey `id` and deletes it in this transaction.
    public func consumeOneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        guard let key = try oneTimePrekey(id: id, forPeer: peer) else { throw .unknownOneTimePrekey(id: id) }
        try storage("consuming prekey \(id) of \(peer)") {
            try db.execute(cached: "DELETE FROM one_time_prekeys WHERE peer_feed_id = ? AND prekey_id = ?", arguments: [peer.string, Int64(id)])
        }
        return key
    }

    /// Unused prekeys handed to `peer` and the size of the last batch (0 before the first).
    public func status(forPeer peer: FeedID) throws(RatchetError) -> PrekeyPoolStatus {
        try storage("reading the prekey pool of \(peer)") {
            let remaining = try Int.fetchOne(db, cached: "SELECT COUNT(*) FROM one_time_prekeys WHERE peer_feed_id = ?", arguments: [peer.string]) ?? 0
            let last = try Int.fetchOne(db, cached: "SELECT last_batch_size FROM prekey_batches WHERE peer_feed_id = ?", arguments: [peer.string]) ?? 0
            return PrekeyPoolStatus(remaining: remaining, lastBatchSize: last)
        }
    }
}

// MARK: Contacts' one-time prekeys (held here)

extension StoreRatchetState: PeerPrekeyStore {
    /// The contact's unused one-time prekey with the lowest id (not removed).
    public func nextPeerPrekey(forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyPublic? {
        try storage("reading the prekeys of \(peer)") {
            guard let row = try Row.fetchOne(
                db, cached: "SELECT prekey_id, public_key FROM peer_prekeys WHERE peer_feed_id = ? ORDER BY prekey_id LIMIT 1",
                arguments: [peer.string]
            ), let id = UInt32(exactly: row["prekey_id"] as Int64) else { return nil }
            return OneTimePrekeyPublic(id: id, publicKey: Array(row["public_key"] as Data))
        }
    }

    /// Removes a contact's one-time prekey once a session used it.
    public func removePeerPrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) {
        try storage("removing prekey \(id) of \(peer)") {
            try db.execute(cached: "DELETE FROM peer_prekeys WHERE peer_feed_id = ? AND prekey_id = ?", arguments: [peer.string, Int64(id)])
        }
    }

    /// Stores a batch the contact handed over (ids already held are ignored).
    public func addPeerPrekeys(_ batch: OneTimePrekeyBatch, forPeer peer: FeedID) throws(RatchetError) {
        try storage("storing prekeys of \(peer)") {
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO peer_prekeys(peer_feed_id, prekey_id, public_key) VALUES (?, ?, ?)")
            for entry in batch.entries { try statement.execute(arguments: [peer.string, Int64(entry.id), Data(entry.publicKey)]) }
        }
    }

    /// The contact's unused one-time prekeys held here.
    public func peerPrekeyCount(forPeer peer: FeedID) throws(RatchetError) -> Int {
        try storage("counting the prekeys of \(peer)") {
            try Int.fetchOne(db, cached: "SELECT COUNT(*) FROM peer_prekeys WHERE peer_feed_id = ?", arguments: [peer.string]) ?? 0
        }
    }
}
