import Foundation
import GRDB

/// Opens Kith's SQLite database: WAL journal, `synchronous = FULL` (an acknowledged ingest
/// survives a crash or power loss), a 32 MiB page cache, foreign keys on, migrations applied.
public enum KithDatabase {
    /// The `PRAGMA synchronous` level every connection runs with (2 = FULL: the WAL is synced at
    /// each commit).
    static let synchronousFull = 2
    /// The page size of a newly created database, in bytes.
    static let pageSize = 16_384

    /// Opens (creating if needed) the database file at `path`, or an in-memory database when nil.
    public static func open(path: String?) throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // 16 KiB pages for a new database (an existing one keeps its size): a bulk ingest of
            // ~1 KiB rows makes a quarter of the WAL frames and write calls of SQLite's default 4 KiB.
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // 32 MiB page cache: random-key index inserts (message ids are hashes) stay in memory.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Checkpoint the WAL every 4,096 pages (64 MiB) instead of 1,000: index pages touched by
            // many inserts are copied back to the database once instead of many times.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 4096")
            // Deleted and overwritten content is zeroed, in b-tree and freelist pages alike: an exploded group's or a
            // retracted message's sealed content leaves no copy in free space. Debian's SQLite is built with this on;
            // set here so every build of SQLite does it.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        do {
            let queue: DatabaseQueue
            if let path {
                configuration.journalMode = .wal
                queue = try DatabaseQueue(path: path, configuration: configuration)
                // GRDB switches a WAL connection to `synchronous = NORMAL` after `prepareDatabase`
                // runs (NORMAL may lose the last commits on power loss): restore FULL and check it.
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    let level = try Int.fetchOne(db, sql: "PRAGMA synchronous")
                    guard level == synchronousFull else {
                        throw StoreError.openFailed(path: path, reason: "PRAGMA synchronous is \(level.map(String.init) ?? "unknown"), FULL required")
                    }
                }
            } else {
                queue = try DatabaseQueue(configuration: configuration)
            }
            try Schema.migrator.migrate(queue)
            return queue
        } catch let error as StoreError {
            throw error
        } catch {
            throw .openFailed(path: path ?? ":memory:", reason: "\(error)")
        }
    }
}
