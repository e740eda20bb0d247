import GRDB
import KithIdentity

/// Recovery through contacts (docs/CONTINUITY.md): the owner's guardian sets and the shares held as a guardian.
extension FeedStore {
    // MARK: Owner side

    /// Records a new guardian set (its generation must be higher than every recorded one).
    public func recordRecoverySet(_ record: RecoverySetRecord) throws(StoreError) {
        try write { db in
            try db.execute(
                cached: """
                    INSERT INTO recovery_own_sets(generation, set_id, threshold, guardians, created_at, identity_key,
                                                  carries_backup_key, revoked_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [record.generation, record.setID, record.threshold,
                            record.guardians.map(\.string).joined(separator: " "), record.createdAt, record.identityKey,
                            record.carriesBackupKey, record.revokedAt]
            )
        }
    }

    /// The newest guardian set, nil before the first.
    public func latestRecoverySet() throws(StoreError) -> RecoverySetRecord? {
        let row = try read { db in
            try Row.fetchOne(db, cached: "SELECT * FROM recovery_own_sets ORDER BY generation DESC LIMIT 1")
        }
        guard let row else { return nil }
        let text: String = row["guardians"]
        let guardians = text.split(separator: " ").compactMap { try? FeedID(String($0)) }
        return RecoverySetRecord(generation: row["generation"], setID: row["set_id"], threshold: row["threshold"],
                                 guardians: guardians, createdAt: row["created_at"], identityKey: row["identity_key"],
                                 carriesBackupKey: row["carries_backup_key"], revokedAt: row["revoked_at"])
    }

    /// Marks every set not yet revoked as revoked at `time` (seconds since 1970).
    public func markRecoverySetsRevoked(at time: Int64) throws(StoreError) {
        try write { db in
            try db.execute(cached: "UPDATE recovery_own_sets SET revoked_at = ? WHERE revoked_at IS NULL", arguments: [time])
        }
    }

    // MARK: Guardian side

    /// Keeps a recovery share from `owner` (see `DirectSessionAccess.acceptRecoveryShare`).
    @discardableResult
    public func acceptRecoveryShare(_ share: [UInt8], from owner: FeedID, setID: String, generation: Int64) throws(StoreError)
        -> RecoveryShareAcceptance {
        try write { db in
            try RecoveryShareRows.accept(share: share, owner: owner.string, setID: setID, generation: generation, in: db,
                                         sealer: sealer, now: Self.nowMillis())
        }
    }

    /// Deletes the share held for `owner` when its generation is `generation` or older (see
    /// `DirectSessionAccess.revokeRecoveryShares`). Returns whether a share was deleted.
    @discardableResult
    public func revokeRecoveryShares(of owner: FeedID, upTo generation: Int64) throws(StoreError) -> Bool {
        try write { db in try RecoveryShareRows.revoke(owner: owner.string, upTo: generation, in: db) }
    }

    /// The shares held as a guardian (without their bytes), by owner.
    public func heldRecoveryShares() throws(StoreError) -> [HeldRecoveryShareRecord] {
        let rows = try read { db in
            try Row.fetchAll(db, cached: "SELECT owner_feed_id, set_id, generation, received_at FROM recovery_held_shares ORDER BY owner_feed_id")
        }
        return rows.compactMap { row in
            guard let owner = try? FeedID(row["owner_feed_id"] as String) else { return nil }
            return HeldRecoveryShareRecord(owner: owner, setID: row["set_id"], generation: row["generation"],
                                           receivedAt: row["received_at"])
        }
    }

    /// The share held for `owner`, opened (for a release), nil when none is held.
    public func heldRecoveryShare(of owner: FeedID) throws(StoreError) -> [UInt8]? {
        let sealed = try read { db in
            try String.fetchOne(db, cached: "SELECT share_sealed FROM recovery_held_shares WHERE owner_feed_id = ?",
                                arguments: [owner.string])
        }
        guard let sealed else { return nil }
        return try sealer.open(sealed, context: RecoveryShareRows.sealingContext(owner: owner.string))
    }
}

/// A new device's pending recovery request (one at a time; the private key sealed at rest).
extension FeedStore {
    static let recoveryRequestContext = "recovery-request"

    /// Stores the request key's secret bytes, replacing any pending request.
    public func savePendingRecoveryRequest(_ secretBytes: [UInt8], createdAt: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                cached: "INSERT OR REPLACE INTO recovery_requests(id, key_sealed, created_at) VALUES (1, ?, ?)",
                arguments: [sealer.seal(secretBytes, context: Self.recoveryRequestContext), createdAt]
            )
        }
    }

    /// The pending request key's secret bytes, nil when there is none.
    public func pendingRecoveryRequest() throws(StoreError) -> [UInt8]? {
        let sealed = try read { db in try String.fetchOne(db, cached: "SELECT key_sealed FROM recovery_requests WHERE id = 1") }
        guard let sealed else { return nil }
        return try sealer.open(sealed, context: Self.recoveryRequestContext)
    }

    /// Forgets the pending request (after the identity was rebuilt: a request is single use).
    public func deletePendingRecoveryRequest() throws(StoreError) {
        try write { db in try db.execute(cached: "DELETE FROM recovery_requests") }
    }
}
