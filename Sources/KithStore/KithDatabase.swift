import Foundation
import GRDB

/// Opens Kith's SQLite database: WAL journal, `synchronous = FULL` (an acknowledged ingest
/// survives a crash or power loss), a 32 MiB page cache, foreign keys on, migrations applied.
public enum KithDatabase {
    /// Opens (creating if needed) the database file at `path`, or an in-memory database when nil.
    public static func open(path: String?) throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // 32 MiB page cache: random-key index inserts (message ids are hashes) stay in memory.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Checkpoint the WAL every 8,192 pages (32 MiB) instead of 1,000: index pages touched by
            // many inserts are copied back to the database once instead of many times.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 8192")
        }
        do {
            let queue: DatabaseQueue
            if let path {
                configuration.journalMode = .wal
                queue = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                queue = try DatabaseQueue(configuration: configuration)
            }
            try Schema.migrator.migrate(queue)
            return queue
        } catch {
            throw .openFailed(path: path ?? ":memory:", reason: "\(error)")
        }
    }
}
