import GRDB
import GRDBSQLite
import KithFeed

/// The `messages` insert of ingest: the one statement run for every message a sync or an import
/// links, bound and stepped through SQLite's C API on GRDB's cached statement (GRDB supports
/// this use of ``GRDB/Statement/sqliteStatement``).
///
/// Packing nine arguments into `StatementArguments` (an existential per value, an array, then
/// validation) cost about a fifth of the insert, more than one of the six B-tree insertions. Here
/// the envelope bytes are bound in place without a `String` copy. Nothing observes the `messages`
/// table through GRDB, so skipping GRDB's per-statement bookkeeping changes no behaviour.
struct MessageInsert {
    static let sql = """
        INSERT INTO messages(message_id, feed_id, sequence, timestamp, type, audience, envelope_json, content_json, tombstoned, received_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9)
        """

    private let statement: Statement

    /// Prepares (or takes from the connection's cache) the statement.
    init(_ db: Database) throws {
        statement = try db.cachedStatement(sql: Self.sql)
    }

    /// Inserts one verified envelope; `sealed` is its content sealed for storage, if readable.
    func execute(_ envelope: Envelope, sealed: String?, receivedAt: Int64) throws {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        bindText(envelope.messageID.string, at: 1)
        bindText(envelope.feedID.string, at: 2)
        sqlite3_bind_int64(handle, 3, Int64(envelope.sequence))
        sqlite3_bind_int64(handle, 4, envelope.timestamp)
        bindText(envelope.type, at: 5)
        bindText(envelope.audience.description, at: 6)
        if let sealed { bindText(sealed, at: 8) } else { sqlite3_bind_null(handle, 8) }
        sqlite3_bind_int64(handle, 9, receivedAt)
        // The envelope bytes (UTF-8 by construction) are bound without a copy for this step only.
        let code = envelope.canonicalBytes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                sqlite3_bind_text(handle, 7, text.baseAddress, CInt(text.count), nil)
                return sqlite3_step(handle)
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                sql: Self.sql
            )
        }
    }

    /// Binds a copy of `text` (SQLite's transient binding).
    private func bindText(_ text: String, at index: CInt) {
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                _ = sqlite3_bind_text(statement.sqliteStatement, index, chars.baseAddress, CInt(chars.count), Self.transient)
            }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT` destructor: copy the value before returning.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
