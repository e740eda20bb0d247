import GRDB

/// How `kith serve` opens its SQLite files (rendezvous and push): foreign keys on, a 5 s busy
/// timeout, WAL for a file, memory when `path` is nil, migrations applied.
enum ServerSQLite {
    /// Opens the database; `relaxedDurability` sets `synchronous = NORMAL` (a commit is not fsynced:
    /// a power loss may lose the last commits, never corrupt the file).
    static func open(path: String?, migrator: DatabaseMigrator, relaxedDurability: Bool = false) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        let queue: DatabaseQueue
        if let path {
            configuration.journalMode = .wal
            if relaxedDurability {
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } else {
            queue = try DatabaseQueue(configuration: configuration)
        }
        try migrator.migrate(queue)
        return queue
    }
}
