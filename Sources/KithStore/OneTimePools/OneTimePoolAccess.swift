import Foundation
import GRDB
import KithCanonical

/// The inner circle's one-time key pools inside one store transaction (docs/TDF.md, "Storage").
///
/// Handed to the closure of ``FeedStore/withOneTimePools(_:)`` and, through
/// ``OwnAppendSlot/oneTimePools``, to an append, so a peer key is marked used in the transaction
/// that stores the message encrypted to it. Valid only during that call. Private halves are sealed
/// by ``ContentSealer`` before they reach SQLite and opened only here.
public struct OneTimePoolAccess {
    let db: Database
    let sealer: ContentSealer
    let now: Int64

    /// The size of a key id (first 8 bytes of SHA-256 of the compressed public key).
    public static let keyIDSize = 8
    /// The size of a compressed P-256 public key.
    public static let publicKeySize = 33
    /// The size of a raw P-256 private scalar.
    public static let privateKeySize = 32
    /// The largest pool stored per side.
    public static let maximumPoolSize = 65_536

    /// A peer key taken for one outgoing message.
    public struct TakenKey: Sendable, Equatable {
        /// The key's position in the peer's pool.
        public let position: Int
        /// The compressed P-256 public key.
        public let publicKey: [UInt8]
        /// Keys left after this one.
        public let remaining: Int
        /// The pool size.
        public let capacity: Int
        /// True when this take crossed below 10 % for the first time (say so once, as an event).
        public let crossedRenewalThreshold: Bool
    }

    private func run<T>(_ body: () throws -> T) throws(OneTimePoolError) -> T {
        do {
            return try body()
        } catch let error as OneTimePoolError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database("\(error)"))
        }
    }

    private static func sealContext(peer: String, keyID: [UInt8]) -> String { "otk_private:\(peer):\(Hex.encode(keyID))" }

    // MARK: Installing

    /// Replaces every pool shared with `peer` by the two pools of one exchange, in this transaction.
    /// `ownKeys` are the private halves this side generated (sealed here), `peerKeys` the peer's
    /// public halves in the order received. A `pending` pool can receive but not send.
    public func install(
        peer: String, exchangeID: [UInt8], state: OneTimePoolStatus.State,
        ownKeys: [(keyID: [UInt8], privateKey: [UInt8])], peerKeys: [[UInt8]]
    ) throws(OneTimePoolError) {
        guard (1...Self.maximumPoolSize).contains(ownKeys.count), (1...Self.maximumPoolSize).contains(peerKeys.count) else {
            throw .invalidPool("pool sizes \(ownKeys.count) and \(peerKeys.count) must be within 1...\(Self.maximumPoolSize)")
        }
        guard ownKeys.allSatisfy({ $0.keyID.count == Self.keyIDSize && $0.privateKey.count == Self.privateKeySize }),
              Set(ownKeys.map(\.keyID)).count == ownKeys.count else {
            throw .invalidPool("own keys need distinct 8-byte ids and 32-byte private keys")
        }
        guard peerKeys.allSatisfy({ $0.count == Self.publicKeySize }) else {
            throw .invalidPool("peer keys must be 33-byte compressed points")
        }
        try run {
            // The replaced pool's unused private halves stay readable (messages sent under it may
            // still be on their way); only the last replaced pool's are kept.
            try db.execute(cached: "DELETE FROM otk_retired_keys WHERE peer_feed_id = ?", arguments: [peer])
            try db.execute(
                cached: """
                    INSERT INTO otk_retired_keys(peer_feed_id, key_id, private_key_sealed, retired_at)
                    SELECT ?, o.key_id, o.private_key_sealed, ? FROM otk_own_keys o
                    JOIN otk_pools p ON p.pool_id = o.pool_id WHERE p.peer_feed_id = ?
                    """,
                arguments: [peer, now, peer]
            )
            try db.execute(cached: "DELETE FROM otk_pools WHERE peer_feed_id = ?", arguments: [peer])
            try db.execute(
                cached: """
                    INSERT INTO otk_pools(peer_feed_id, exchange_id, state, own_capacity, peer_capacity, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [peer, Data(exchangeID), state.rawValue, ownKeys.count, peerKeys.count, now]
            )
            let poolID = db.lastInsertedRowID
            let ownInsert = try db.cachedStatement(sql: "INSERT INTO otk_own_keys(pool_id, key_id, private_key_sealed) VALUES (?, ?, ?)")
            for key in ownKeys {
                let sealed = sealer.sealBinary(key.privateKey, context: Self.sealContext(peer: peer, keyID: key.keyID))
                try ownInsert.execute(arguments: [poolID, Data(key.keyID), Data(sealed)])
            }
            let peerInsert = try db.cachedStatement(sql: "INSERT INTO otk_peer_keys(pool_id, position, public_key) VALUES (?, ?, ?)")
            for (position, key) in peerKeys.enumerated() {
                try peerInsert.execute(arguments: [poolID, position, Data(key)])
            }
        }
    }

    /// Makes the pending pools of exchange `exchangeID` active (the commit arrived). Returns false
    /// when no pending pool of that exchange is stored for `peer`.
    @discardableResult
    public func activate(peer: String, exchangeID: [UInt8]) throws(OneTimePoolError) -> Bool {
        try run {
            try db.execute(
                cached: "UPDATE otk_pools SET state = 'active' WHERE peer_feed_id = ? AND exchange_id = ? AND state = 'pending'",
                arguments: [peer, Data(exchangeID)]
            )
            return db.changesCount > 0
        }
    }

    /// Deletes both pools shared with `peer`, and the private halves kept from an earlier pool
    /// (trust revocation). Returns false when there were no pools.
    @discardableResult
    public func revoke(peer: String) throws(OneTimePoolError) -> Bool {
        try run {
            try db.execute(cached: "DELETE FROM otk_pools WHERE peer_feed_id = ?", arguments: [peer])
            let had = db.changesCount > 0
            try db.execute(cached: "DELETE FROM otk_retired_keys WHERE peer_feed_id = ?", arguments: [peer])
            return had
        }
    }

    /// Deletes both pools shared with `peer` (as ``revoke(peer:)``) and any intent recorded for it: the channel
    /// with `peer` starts over, so nothing is planned or told. Returns false when there were no pools.
    @discardableResult
    public func forget(peer: String) throws(OneTimePoolError) -> Bool {
        let had = try revoke(peer: peer)
        try clearIntent(peer: peer)
        return had
    }

    // MARK: Intents

    /// Records what the next sync session with `peer` does (replacing any earlier intent).
    public func setIntent(_ intent: OneTimeIntent, peer: String) throws(OneTimePoolError) {
        let (name, size): (String, Int) = switch intent {
        case .exchange(let poolSize): ("exchange", poolSize)
        case .revoke: ("revoke", 0)
        case .confirm(let poolSize): ("confirm", poolSize)
        }
        if name != "revoke", !(1...Self.maximumPoolSize).contains(size) {
            throw .invalidPool("pool size \(size) is outside 1...\(Self.maximumPoolSize)")
        }
        try run {
            try db.execute(
                cached: "INSERT OR REPLACE INTO otk_intents(peer_feed_id, intent, pool_size, recorded_at) VALUES (?, ?, ?, ?)",
                arguments: [peer, name, size, now]
            )
        }
    }

    /// The intent recorded for `peer`, nil when none.
    public func intent(peer: String) throws(OneTimePoolError) -> OneTimeIntent? {
        let row = try run { try Row.fetchOne(db, cached: "SELECT intent, pool_size FROM otk_intents WHERE peer_feed_id = ?", arguments: [peer]) }
        return row.map(Self.intent)
    }

    private static func intent(_ row: Row) -> OneTimeIntent {
        switch row["intent"] as String {
        case "revoke": .revoke
        case "confirm": .confirm(poolSize: row["pool_size"])
        default: .exchange(poolSize: row["pool_size"])
        }
    }

    /// Forgets the intent recorded for `peer` (done, or superseded).
    public func clearIntent(peer: String) throws(OneTimePoolError) {
        try run { try db.execute(cached: "DELETE FROM otk_intents WHERE peer_feed_id = ?", arguments: [peer]) }
    }

    /// Every recorded intent, by peer feed id.
    public func intents() throws(OneTimePoolError) -> [String: OneTimeIntent] {
        let rows = try run { try Row.fetchAll(db, sql: "SELECT peer_feed_id, intent, pool_size FROM otk_intents") }
        var intents: [String: OneTimeIntent] = [:]
        for row in rows {
            intents[row["peer_feed_id"]] = Self.intent(row)
        }
        return intents
    }

    /// Deletes the pools of exchange `exchangeID` with `peer` only (an aborted exchange's pending
    /// pools); returns false when the stored pools belong to another exchange.
    @discardableResult
    public func discard(peer: String, exchangeID: [UInt8]) throws(OneTimePoolError) -> Bool {
        try run {
            try db.execute(cached: "DELETE FROM otk_pools WHERE peer_feed_id = ? AND exchange_id = ?", arguments: [peer, Data(exchangeID)])
            return db.changesCount > 0
        }
    }

    // MARK: Sending

    /// Takes the next unused key of the peer's pool and marks it used in this transaction.
    /// - Throws: ``OneTimePoolError/noPool(peer:)``, ``OneTimePoolError/pending(peer:)``,
    ///   ``OneTimePoolError/exhausted(peer:)``: never a reused key.
    public func takeNextPeerKey(peer: String) throws(OneTimePoolError) -> TakenKey {
        let pool = try self.pool(peer: peer)
        guard pool.state == .active else { throw .pending(peer: peer) }
        return try run {
            guard let row = try Row.fetchOne(
                db,
                cached: """
                    UPDATE otk_peer_keys SET used = 1
                    WHERE pool_id = ?1 AND position = (SELECT MIN(position) FROM otk_peer_keys WHERE pool_id = ?1 AND used = 0)
                    RETURNING position, public_key
                    """,
                arguments: [pool.id]
            ) else { throw OneTimePoolError.exhausted(peer: peer) }
            let position: Int = row["position"]
            let key: Data = row["public_key"]
            let remaining = pool.peerCapacity - position - 1
            let low = Double(remaining) < Double(pool.peerCapacity) * OneTimePoolStatus.renewalThreshold
            var crossed = false
            if low && !pool.lowReported {
                try db.execute(cached: "UPDATE otk_pools SET low_reported = 1 WHERE pool_id = ?", arguments: [pool.id])
                crossed = true
            }
            if low { try armRenewal(peer: peer, poolSize: pool.ownCapacity) }
            return TakenKey(position: position, publicKey: Array(key), remaining: remaining, capacity: pool.peerCapacity, crossedRenewalThreshold: crossed)
        }
    }

    // MARK: Receiving

    /// The raw private key with this id in the pool shared with `peer`; the key stays until
    /// ``deleteOwnKey(peer:keyID:)`` (call it in the same transaction once the message decrypted).
    /// A key of the pool a renewal replaced is found too (a message sent before the renewal).
    /// With no current pool (an exchange that replaced one was then discarded) only the kept keys answer.
    public func ownPrivateKey(peer: String, keyID: [UInt8]) throws(OneTimePoolError) -> [UInt8] {
        let pool = try? self.pool(peer: peer)
        let sealed: Data? = try run {
            try pool.flatMap { pool in
                try Data.fetchOne(db, cached: "SELECT private_key_sealed FROM otk_own_keys WHERE pool_id = ? AND key_id = ?", arguments: [pool.id, Data(keyID)])
            } ?? Data.fetchOne(
                db, cached: "SELECT private_key_sealed FROM otk_retired_keys WHERE peer_feed_id = ? AND key_id = ?", arguments: [peer, Data(keyID)])
        }
        guard let sealed else {
            if pool == nil { throw .noPool(peer: peer) }
            throw .unknownKey(peer: peer, keyID: Hex.encode(keyID))
        }
        do {
            return try sealer.openBinary(Array(sealed), context: Self.sealContext(peer: peer, keyID: keyID))
        } catch {
            throw .store(error)
        }
    }

    /// Deletes a private key after its message decrypted (true one-time use: a replay finds no key).
    /// A message under a pending pool proves the peer committed: the pool becomes active.
    public func deleteOwnKey(peer: String, keyID: [UInt8]) throws(OneTimePoolError) {
        let pool = try? self.pool(peer: peer)
        try run {
            if let pool {
                try db.execute(cached: "DELETE FROM otk_own_keys WHERE pool_id = ? AND key_id = ?", arguments: [pool.id, Data(keyID)])
            }
            if pool == nil || db.changesCount == 0 {
                // A key of the replaced pool: it says nothing about the current one.
                try db.execute(cached: "DELETE FROM otk_retired_keys WHERE peer_feed_id = ? AND key_id = ?", arguments: [peer, Data(keyID)])
                guard db.changesCount == 1 else { throw OneTimePoolError.unknownKey(peer: peer, keyID: Hex.encode(keyID)) }
                return
            }
            if let pool, pool.state == .pending {
                try db.execute(cached: "UPDATE otk_pools SET state = 'active' WHERE pool_id = ?", arguments: [pool.id])
            }
        }
    }

    // MARK: Status

    /// The pools shared with `peer`, nil when none.
    public func status(peer: String) throws(OneTimePoolError) -> OneTimePoolStatus? {
        try run { try Row.fetchOne(db, sql: Self.statusQuery + " WHERE p.peer_feed_id = ?", arguments: [peer]).map(Self.status) }
    }

    /// Every peer with pools, by feed id.
    public func statuses() throws(OneTimePoolError) -> [OneTimePoolStatus] {
        try run { try Row.fetchAll(db, sql: Self.statusQuery + " ORDER BY p.peer_feed_id").map(Self.status) }
    }

    private static let statusQuery = """
        SELECT p.peer_feed_id, p.exchange_id, p.state, p.own_capacity, p.peer_capacity, p.created_at,
            (SELECT COUNT(*) FROM otk_own_keys o WHERE o.pool_id = p.pool_id) AS own_remaining,
            (SELECT COUNT(*) FROM otk_peer_keys k WHERE k.pool_id = p.pool_id AND k.used = 0) AS peer_remaining
        FROM otk_pools p
        """

    private static func status(_ row: Row) -> OneTimePoolStatus {
        OneTimePoolStatus(
            peer: row["peer_feed_id"], exchangeID: Hex.encode(Array(row["exchange_id"] as Data)),
            state: OneTimePoolStatus.State(rawValue: row["state"]) ?? .pending,
            ownRemaining: row["own_remaining"], ownCapacity: row["own_capacity"],
            peerRemaining: row["peer_remaining"], peerCapacity: row["peer_capacity"], createdAt: row["created_at"]
        )
    }

    private struct PoolRow {
        let id: Int64
        let state: OneTimePoolStatus.State
        let ownCapacity: Int
        let peerCapacity: Int
        let lowReported: Bool
    }

    /// Arms a renewal of the same size for the next session with `peer` once the keys to send are
    /// below 10 %, unless an exchange or a revocation is recorded already (a confirmation is
    /// replaced: an armed exchange also answers the peer's request). The other side answers it
    /// because its own pool is low too (the same keys), so the exchange runs at their next sync:
    /// they agreed to the inner circle in person, and the new pools travel in the secure link as
    /// the first ones did.
    private func armRenewal(peer: String, poolSize: Int) throws {
        try db.execute(
            cached: """
                INSERT INTO otk_intents(peer_feed_id, intent, pool_size, recorded_at) VALUES (?, 'exchange', ?, ?)
                ON CONFLICT(peer_feed_id) DO UPDATE SET intent = 'exchange', pool_size = excluded.pool_size, recorded_at = excluded.recorded_at
                WHERE otk_intents.intent = 'confirm'
                """,
            arguments: [peer, poolSize, now]
        )
    }

    private func pool(peer: String) throws(OneTimePoolError) -> PoolRow {
        let row = try run {
            try Row.fetchOne(db, cached: "SELECT pool_id, state, own_capacity, peer_capacity, low_reported FROM otk_pools WHERE peer_feed_id = ?", arguments: [peer])
        }
        guard let row else { throw .noPool(peer: peer) }
        return PoolRow(
            id: row["pool_id"], state: OneTimePoolStatus.State(rawValue: row["state"]) ?? .pending,
            ownCapacity: row["own_capacity"], peerCapacity: row["peer_capacity"], lowReported: (row["low_reported"] as Int64) != 0
        )
    }
}
