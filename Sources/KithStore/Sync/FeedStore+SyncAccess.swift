import GRDB
import KithFeed
import KithIdentity

/// Store reads sized for sync sessions (docs/sync.md, "Implementation notes"): a session reads
/// the delta it serves through the `(feed_id, sequence)` indexes, never a whole feed, and lists
/// every followed feed in a fixed number of statements, whatever the number of feeds.
extension FeedStore {
    /// The entries of `feed` above `sequence` (all of them when nil), oldest first, at most
    /// `limit`, in the form they replicate to a peer: envelopes, with the author's self messages
    /// replaced by their signed stubs and received self stubs as held (the lines of
    /// ``export(feed:forPeer:)`` with `forPeer` true). Stubs of other kinds (`foreign`, `pruned`)
    /// are not replicated.
    ///
    /// Each entry carries the envelope `type` recorded at ingest, so a caller can schedule it
    /// without parsing the line.
    ///
    /// - Throws: ``StoreError/missingSelfStub(_:)`` when one of the author's self messages in the
    ///   range has no signed stub yet.
    public func entries(of feed: FeedID, above sequence: UInt32?, limit: Int) throws(StoreError) -> [PeerEntry] {
        guard limit > 0 else { return [] }
        let floor = sequence.map(Int64.init) ?? -1
        return try read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: Self.peerEntriesSQL),
                arguments: [feed.string, floor, limit]
            )
            var entries: [PeerEntry] = []
            entries.reserveCapacity(rows.count)
            for row in rows {
                guard let sequence = UInt32(exactly: row[0] as Int64) else { continue }
                let line: String = row[3]
                let type: String? = row[2]
                // A message row (type set) of audience self is the author's own: it travels as
                // its signed stub. A stub row (type NULL) already is that stub.
                if type != nil, (row[1] as String) == "self" {
                    guard let stub = row[4] as String? else { throw StoreError.missingSelfStub(row[5] as String) }
                    entries.append(PeerEntry(sequence: sequence, line: Array(stub.utf8), type: nil))
                } else {
                    entries.append(PeerEntry(sequence: sequence, line: Array(line.utf8), type: type))
                }
            }
            return entries
        }
    }

    /// The highest sequence of `feed` that replicates to a peer (an envelope or a self stub),
    /// nil when none is held; one indexed lookup per table.
    public func peerHead(of feed: FeedID) throws(StoreError) -> UInt32? {
        try read { db in
            let value = try Int64.fetchOne(
                db.cachedStatement(sql: """
                    SELECT MAX(head) FROM (
                        SELECT MAX(sequence) AS head FROM messages WHERE feed_id = ?1
                        UNION ALL SELECT MAX(sequence) FROM message_stubs WHERE feed_id = ?1 AND reason = 'self'
                    )
                    """),
                arguments: [feed.string]
            )
            return value.flatMap(UInt32.init(exactly:))
        }
    }

    /// Every followed feed (own feed first, then by feed id) with its linked head and the
    /// signed entries held ahead of a gap: two statements in one read, whatever the number of feeds.
    public func replicationStates() throws(StoreError) -> [FeedReplicationState] {
        try read { db in
            var held: [String: [UInt32]] = [:]
            let pending = try Row.fetchCursor(
                db,
                cached: "SELECT DISTINCT feed_id, sequence FROM pending_entries WHERE kind IN ('envelope', 'self') ORDER BY feed_id, sequence"
            )
            while let row = try pending.next() {
                guard let sequence = UInt32(exactly: row[1] as Int64) else { continue }
                held[row[0] as String, default: []].append(sequence)
            }
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT f.feed_id, f.is_local,
                        (SELECT MAX(sequence) FROM messages WHERE feed_id = f.feed_id) AS message_head,
                        (SELECT MAX(sequence) FROM message_stubs WHERE feed_id = f.feed_id) AS stub_head
                    FROM feeds f ORDER BY f.is_local DESC, f.feed_id
                    """
            )
            return rows.compactMap { row -> FeedReplicationState? in
                let text: String = row[0]
                guard let feedID = try? FeedID(text) else { return nil }
                let heads = [row[2] as Int64?, row[3] as Int64?].compactMap { $0 }
                return FeedReplicationState(
                    feedID: feedID, isLocal: (row[1] as Int64) != 0,
                    headSequence: heads.max().flatMap(UInt32.init(exactly:)),
                    heldSequences: held[text] ?? []
                )
            }
        }
    }

    /// True when `feed` is followed here (one primary-key lookup).
    public func isFollowed(_ feed: FeedID) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS(SELECT 1 FROM feeds WHERE feed_id = ?)"), arguments: [feed.string]) ?? false
        }
    }

    /// Columns: sequence, audience, type (NULL for a received stub), line, own stub line, message id.
    /// Each branch is a range scan of its `(feed_id, sequence)` index; the merge stops at the limit.
    static let peerEntriesSQL = """
        SELECT m.sequence, m.audience, m.type, m.envelope_json, o.entry_json, m.message_id
        FROM messages m LEFT JOIN own_self_stubs o ON o.message_id = m.message_id
        WHERE m.feed_id = ?1 AND m.sequence > ?2
        UNION ALL
        SELECT sequence, 'self', NULL, entry_json, entry_json, message_id
        FROM message_stubs WHERE feed_id = ?1 AND reason = 'self' AND sequence > ?2
        ORDER BY 1 LIMIT ?3
        """
}
