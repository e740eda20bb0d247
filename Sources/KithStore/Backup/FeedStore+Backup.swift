import Foundation
import GRDB
import KithFeed

/// What a backup carries from the account database, and how a restore puts it back (docs/CONTINUITY.md, "What is
/// carried"). Only the tables in `backupCarriedTables` are ever read for a backup or written by a restore; ratchet
/// sessions, prekeys, one-time pools and MLS state are never in that list.
extension FeedStore {
    /// The carried tables, in the order a restore inserts them (referenced tables first).
    public static let backupCarriedTables: [String] = [
        "feeds", "feed_keys", "messages", "message_stubs", "own_self_stubs", "pending_entries", "foreign_envelopes",
        "fork_evidence", "withheld_messages", "contacts", "contact_dh_keys", "key_rotations", "contact_introductions",
        "pending_contacts", "group_peers", "invites_consumed", "invite_requests_sent", "invite_cards",
        "push_registration", "push_tokens_issued", "push_tokens_held", "blobs",
        "recovery_own_sets", "recovery_held_shares", "recovery_revoked", "mls_key_offer_settings",
    ]

    /// Tables never carried because they hold one-time or ratchet secrets (re-established after a restore).
    public static let backupReestablishedTables: [String] = [
        "dr_sessions", "one_time_prekeys", "prekey_batches", "peer_prekeys", "direct_failures", "sync_peer_state",
        "mls_groups", "mls_group_members", "mls_own_key_packages", "mls_peer_key_packages", "mls_processed",
        "mls_outbox", "mls_held", "mls_group_trees", "mls_group_ratchets", "otk_pools", "otk_own_keys",
        "otk_peer_keys", "otk_retired_keys", "otk_intents",
    ]

    /// Columns a backup never carries because a restore derives them from another column of the same row:
    /// `messages.message_id` is the SHA-256 (base64url) of `envelope_json`, as every insert computes it.
    public static let backupDerivedColumns: [(table: String, column: String, source: String)] = [
        (table: "messages", column: "message_id", source: "envelope_json"),
    ]

    /// Rows per write transaction during a restore.
    public static let backupImportBatch = 2000

    /// The number of migrations applied to this database: a restore refuses a backup from a newer schema.
    public func backupSchemaVersion() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") ?? 0 }
    }

    /// The queries an export runs, one per carried table: `window` keeps only the newest `window` messages of each
    /// followed feed (the own feed is always whole); `includeBlobs` false skips `blobs`.
    static func backupQueries(ownFeedID: String, window: Int?, includeBlobs: Bool) -> [(table: String, filter: String, arguments: StatementArguments)] {
        Self.backupCarriedTables.compactMap { table in
            if table == "blobs" && !includeBlobs { return nil }
            if table == "messages", let window {
                return (table, """
                     WHERE feed_id = ? OR sequence > (SELECT MAX(m2.sequence) FROM messages m2
                                                      WHERE m2.feed_id = messages.feed_id) - ?
                    """, [ownFeedID, window])
            }
            return (table, "", [])
        }
    }

    /// Rows each carried table will contribute to a backup with these options.
    public func backupExportCounts(ownFeedID: String, window: Int?, includeBlobs: Bool) throws(StoreError) -> [String: Int64] {
        try read { db in
            var counts: [String: Int64] = [:]
            for query in Self.backupQueries(ownFeedID: ownFeedID, window: window, includeBlobs: includeBlobs) {
                counts[query.table] = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM \(query.table)\(query.filter)", arguments: query.arguments) ?? 0
            }
            return counts
        }
    }

    /// Bytes of stored envelopes (`messages.envelope_json`): the yardstick of a backup's size.
    public func backupStoredEnvelopeBytes() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(CAST(envelope_json AS BLOB))), 0) FROM messages") ?? 0 }
    }

    /// Visits every carried row with a database cursor (bounded memory), table by table in restore order.
    public func backupExportRows(
        ownFeedID: String, window: Int?, includeBlobs: Bool, visit: (BackupStoreRow) throws -> Void
    ) throws(StoreError) {
        try read { db in
            for query in Self.backupQueries(ownFeedID: ownFeedID, window: window, includeBlobs: includeBlobs) {
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(query.table)\(query.filter)", arguments: query.arguments)
                while let row = try rows.next() {
                    try visit(Self.backupRow(table: query.table, row))
                }
            }
            return ()
        }
    }

    /// Summaries of the groups this account is in (id, name, members): carried so a restore can name what needs
    /// readmission, while the MLS state itself is not.
    public func backupGroupSummaries() throws(StoreError) -> [(groupID: String, name: String?, members: [String], committer: String?)] {
        try read { db in
            let groups = try Row.fetchAll(db, sql: "SELECT group_id, group_name, committer FROM mls_groups ORDER BY group_id")
            return try groups.map { row in
                let id: String = row["group_id"]
                let members = try String.fetchAll(
                    db, sql: "SELECT feed_id FROM mls_group_members WHERE group_id = ? ORDER BY feed_id", arguments: [id])
                return (id, row["group_name"], members, row["committer"])
            }
        }
    }

    /// Counts rows of `table` (for manifests and restore reports); `table` must be carried or re-established.
    public func backupRowCount(_ table: String) throws(StoreError) -> Int64 {
        guard Self.backupCarriedTables.contains(table) || Self.backupReestablishedTables.contains(table) else {
            throw .database("\(table) is not a table a backup knows")
        }
        return try read { db in try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// Inserts restored rows in one transaction. A row for a table that is not carried, or naming a column the
    /// table does not have, is refused (a hostile backup cannot write sessions, prekeys or pools); derived columns
    /// (`backupDerivedColumns`) must not be carried and are computed here.
    public func backupImport(_ rows: [BackupStoreRow]) throws(StoreError) {
        try write { db in
            var columnsByTable: [String: Set<String>] = [:]
            var textKeysByTable: [String: Set<String>] = [:]
            for row in rows {
                guard Self.backupCarriedTables.contains(row.table) else {
                    throw StoreError.database("a backup row targets \(row.table.debugDescription), which a backup never carries")
                }
                guard row.names.count == row.values.count, !row.names.isEmpty else {
                    throw StoreError.database("a backup row for \(row.table) has no or mismatched columns")
                }
                let known: Set<String>
                let keys: Set<String>
                if let cached = columnsByTable[row.table], let cachedKeys = textKeysByTable[row.table] {
                    (known, keys) = (cached, cachedKeys)
                } else {
                    let columns = try Row.fetchAll(db, sql: "SELECT name, type, pk FROM pragma_table_info(?)", arguments: [row.table])
                    known = Set(columns.map { $0["name"] as String })
                    // SQLite lets a non-INTEGER primary key hold NULL; the store's readers never expect one.
                    keys = Set(columns.filter { ($0["pk"] as Int) > 0 && ($0["type"] as String).uppercased() != "INTEGER" }.map { $0["name"] as String })
                    columnsByTable[row.table] = known
                    textKeysByTable[row.table] = keys
                }
                guard Set(row.names).count == row.names.count, row.names.allSatisfy(known.contains) else {
                    throw StoreError.database("a backup row for \(row.table) names a column the table does not have")
                }
                for (name, value) in zip(row.names, row.values) where value == .null && keys.contains(name) {
                    throw StoreError.database("a backup row for \(row.table) has no value for its key \(name)")
                }
                var names = row.names
                var values: [DatabaseValue] = row.values.map { value in
                    switch value {
                    case .null: DatabaseValue.null
                    case .integer(let number): number.databaseValue
                    case .text(let text): text.databaseValue
                    case .blob(let bytes): Data(bytes).databaseValue
                    }
                }
                for derived in Self.backupDerivedColumns where derived.table == row.table {
                    let value = try Self.backupDerivedValue(derived, of: row)
                    names.append(derived.column)
                    values.append(value.databaseValue)
                }
                let columns = names.map { "\"\($0)\"" }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                // One prepared statement per table and column list (the columns were checked against the table).
                let insert = try db.cachedStatement(sql: "INSERT INTO \(row.table) (\(columns)) VALUES (\(marks))")
                try insert.execute(arguments: StatementArguments(values))
            }
        }
    }

    /// The value of a derived column, computed from its source column in `row` (which must carry the source and
    /// not the derived column itself).
    static func backupDerivedValue(_ derived: (table: String, column: String, source: String), of row: BackupStoreRow) throws(StoreError) -> String {
        guard !row.names.contains(derived.column) else {
            throw .database("a backup row for \(row.table) carries \(derived.column), which a restore derives from \(derived.source)")
        }
        guard let index = row.names.firstIndex(of: derived.source), case .text(let source) = row.values[index] else {
            throw .database("a backup row for \(row.table) has no text \(derived.source) to derive \(derived.column) from")
        }
        return MessageID(hashing: source.utf8).string
    }

    /// A database row as a carried row, without the columns a restore derives.
    static func backupRow(table: String, _ row: Row) throws -> BackupStoreRow {
        var names: [String] = []
        var values: [BackupStoreValue] = []
        for (name, value) in row {
            if Self.backupDerivedColumns.contains(where: { $0.table == table && $0.column == name }) { continue }
            names.append(name)
            switch value.storage {
            case .null: values.append(.null)
            case .int64(let number): values.append(.integer(number))
            case .string(let text): values.append(.text(text))
            case .blob(let data): values.append(.blob(Array(data)))
            case .double: throw StoreError.database("\(table).\(name) holds a REAL, which a backup does not carry")
            }
        }
        // A reader refuses a header of more columns: never write a backup that cannot be restored.
        guard names.count <= BackupStoreRow.maximumColumns else {
            throw StoreError.database("\(table) has \(names.count) columns, more than a backup carries (\(BackupStoreRow.maximumColumns))")
        }
        return BackupStoreRow(table: table, names: names, values: values)
    }
}
