import GRDB

/// Keeps entries that cannot be authenticated (later-version envelopes) within
/// ``StoreLimits``, oldest first, so they never crowd out authenticated ones
/// (docs/FEED-FORMAT.md section 7 rule 11).
///
/// Run at the end of each ingest transaction for the feeds it touched, and by garbage collection
/// for every feed. A later-version envelope already linked as a chain position (a `foreign` stub)
/// is authenticated by the next message's signed `previous` and is never evicted.
enum UnauthenticatedBounds {
    /// Trims the later-version entries of `feeds` (nil: every feed) and the global relay store.
    /// Returns how many rows were removed.
    @discardableResult
    static func enforce(_ limits: StoreLimits, feeds: [String]?, in db: Database) throws -> Int {
        var removed = 0
        let feedIDs = try feeds ?? String.fetchAll(
            db, cached: "SELECT DISTINCT feed_id FROM foreign_envelopes WHERE feed_id IS NOT NULL UNION SELECT DISTINCT feed_id FROM pending_entries WHERE kind = 'foreign'"
        )
        for feed in feedIDs {
            // Held later-version entries at or below the linked head can never be placed.
            try db.execute(
                cached: """
                    DELETE FROM pending_entries WHERE feed_id = ?1 AND kind = 'foreign' AND sequence <= COALESCE(
                        (SELECT MAX(sequence) FROM (SELECT sequence FROM messages WHERE feed_id = ?1 UNION ALL SELECT sequence FROM message_stubs WHERE feed_id = ?1)), -1)
                    """,
                arguments: [feed]
            )
            removed += db.changesCount
            try db.execute(
                cached: """
                    DELETE FROM pending_entries WHERE rowid IN (
                        SELECT rowid FROM pending_entries WHERE feed_id = ?1 AND kind = 'foreign'
                        ORDER BY received_at, rowid LIMIT MAX(0, (SELECT COUNT(*) FROM pending_entries WHERE feed_id = ?1 AND kind = 'foreign') - ?2))
                    """,
                arguments: [feed, limits.maxUnauthenticatedPendingPerFeed]
            )
            removed += db.changesCount
            try db.execute(
                cached: """
                    DELETE FROM foreign_envelopes WHERE rowid IN (
                        SELECT rowid FROM foreign_envelopes WHERE feed_id = ?1 AND \(unlinked)
                        ORDER BY received_at, rowid LIMIT MAX(0, (SELECT COUNT(*) FROM foreign_envelopes WHERE feed_id = ?1) - ?2))
                    """,
                arguments: [feed, limits.maxForeignEnvelopesPerFeed]
            )
            removed += db.changesCount
        }
        try db.execute(
            cached: """
                DELETE FROM foreign_envelopes WHERE rowid IN (
                    SELECT rowid FROM foreign_envelopes WHERE \(unlinked)
                    ORDER BY received_at, rowid LIMIT MAX(0, (SELECT COUNT(*) FROM foreign_envelopes) - ?1))
                """,
            arguments: [limits.maxForeignEnvelopes]
        )
        removed += db.changesCount
        return removed
    }

    /// A later-version envelope that is not a linked chain position.
    private static let unlinked = "message_id NOT IN (SELECT message_id FROM message_stubs WHERE reason = 'foreign')"
}

extension Schema {
    /// Indexes for ``UnauthenticatedBounds`` (oldest first, per feed and overall).
    static let foreignBoundsIndexes = """
        CREATE INDEX idx_foreign_feed_received ON foreign_envelopes(feed_id, received_at);
        CREATE INDEX idx_foreign_received ON foreign_envelopes(received_at);
        """
}
