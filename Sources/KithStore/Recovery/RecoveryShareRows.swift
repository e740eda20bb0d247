import GRDB
import KithIdentity

/// The SQL of `recovery_held_shares`, shared by `FeedStore` and `DirectSessionAccess`.
enum RecoveryShareRows {
    static func sealingContext(owner: String) -> String { "recovery-held:\(owner)" }

    /// Keeps `share` from `owner` unless a share of the same or a newer generation is held, or the owner revoked
    /// that generation (`recovery_revoked`: a revoked share handed over again, by a replay, is never kept).
    static func accept(share: [UInt8], owner: String, setID: String, generation: Int64, in db: Database,
                       sealer: ContentSealer, now: Int64) throws -> RecoveryShareAcceptance {
        if let revoked = try Int64.fetchOne(db, cached: "SELECT generation FROM recovery_revoked WHERE owner_feed_id = ?",
                                            arguments: [owner]), revoked >= generation {
            return .stale
        }
        if let held = try Int64.fetchOne(db, cached: "SELECT generation FROM recovery_held_shares WHERE owner_feed_id = ?",
                                         arguments: [owner]), held >= generation {
            return .stale
        }
        try db.execute(
            cached: """
                INSERT OR REPLACE INTO recovery_held_shares(owner_feed_id, set_id, generation, share_sealed, received_at)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [owner, setID, generation, sealer.seal(share, context: sealingContext(owner: owner)), now]
        )
        return .kept
    }

    /// Deletes the share held for `owner` when its generation is `generation` or older; true when one was deleted.
    /// The highest revoked generation is remembered per owner, so a share of that generation or older is never kept
    /// again.
    static func revoke(owner: String, upTo generation: Int64, in db: Database) throws -> Bool {
        try db.execute(cached: "DELETE FROM recovery_held_shares WHERE owner_feed_id = ? AND generation <= ?",
                       arguments: [owner, generation])
        let deleted = db.changesCount > 0
        try db.execute(
            cached: """
                INSERT INTO recovery_revoked(owner_feed_id, generation) VALUES (?, ?)
                ON CONFLICT(owner_feed_id) DO UPDATE SET generation = MAX(generation, excluded.generation)
                """,
            arguments: [owner, generation])
        return deleted
    }
}
