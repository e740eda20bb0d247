import GRDB
import KithIdentity

/// Reading and acknowledging recorded forks (`fork_evidence`; docs/CONTINUITY.md section 3).
extension FeedStore {
    /// Recorded forks, oldest first; with `includeAcknowledged` false, only those not yet acknowledged.
    public func forkRecords(includeAcknowledged: Bool = false) throws(StoreError) -> [ForkRecord] {
        let sql = """
            SELECT feed_id, sequence, kept_message_id, conflicting_message_id, reason, detected_at, acknowledged_at
            FROM fork_evidence\(includeAcknowledged ? "" : " WHERE acknowledged_at IS NULL") ORDER BY id
            """
        return try read { db in
            try Row.fetchAll(db, sql: sql).compactMap { row -> ForkRecord? in
                guard let feed = try? FeedID(row["feed_id"] as String) else { return nil }
                return ForkRecord(
                    feedID: feed, sequence: UInt32(clamping: row["sequence"] as Int64), keptMessageID: row["kept_message_id"],
                    conflictingMessageID: row["conflicting_message_id"], reason: row["reason"], detectedAt: row["detected_at"],
                    acknowledgedAt: row["acknowledged_at"])
            }
        }
    }

    /// Marks every open fork of `feed` acknowledged at `now`; returns how many were open. The evidence stays.
    @discardableResult
    public func acknowledgeForks(of feed: FeedID, now: Int64) throws(StoreError) -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE fork_evidence SET acknowledged_at = ? WHERE feed_id = ? AND acknowledged_at IS NULL",
                arguments: [now, feed.string])
            return db.changesCount
        }
    }
}
