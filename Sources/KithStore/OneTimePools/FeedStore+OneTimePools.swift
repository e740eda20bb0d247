import GRDB
import KithFeed
import KithIdentity

extension FeedStore {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction over the one-time pools: all it wrote
    /// commits, or nothing when it throws.
    public func withOneTimePools<T>(_ body: (OneTimePoolAccess) throws(OneTimePoolError) -> T) throws(OneTimePoolError) -> T {
        var failure: OneTimePoolError?
        var result: T?
        do {
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    do throws(OneTimePoolError) {
                        result = try body(OneTimePoolAccess(db: db, sealer: sealer, now: Self.nowMillis()))
                    } catch {
                        failure = error
                        return .rollback
                    }
                    return .commit
                }
            }
        } catch {
            throw .store(.database("\(error)"))
        }
        if let failure { throw failure }
        guard let result else { throw .store(.database("one-time pool transaction returned nothing")) }
        return result
    }

    /// The pools shared with every peer (a read, no lock held for writing).
    public func oneTimePoolStatuses() throws(OneTimePoolError) -> [OneTimePoolStatus] {
        do {
            return try database.inDatabase { db in try Self.readSnapshot(db) { db in
                do throws(OneTimePoolError) {
                    return try OneTimePoolAccess(db: db, sealer: sealer, now: Self.nowMillis()).statuses()
                } catch {
                    throw error
                }
            } }
        } catch let error as OneTimePoolError {
            throw error
        } catch {
            throw .store(.database("\(error)"))
        }
    }

    /// Decrypts the linked one-time messages addressed to `local` (`otk:{local}`) that are still
    /// opaque, in feed and sequence order, each in its own savepoint: `open` finds the private key
    /// through the access, decrypts and deletes the key (``OneTimePoolAccess/deleteOwnKey(peer:keyID:)``);
    /// the content is sealed in the same transaction. A throw undoes what `open` wrote for that
    /// message (the key stays) and records the failure (never retried); nil leaves it for later.
    public func openOneTimeMessages(
        to local: FeedID, _ open: (Envelope, OneTimePoolAccess) throws -> [UInt8]?
    ) throws(StoreError) -> DirectOpenReport {
        // Runs after every sync and import: with nothing waiting, no write transaction.
        guard try read({ db in try hasUnopened(.oneTime, to: local, in: db) }) else { return DirectOpenReport() }
        return try write { db in
            let access = OneTimePoolAccess(db: db, sealer: sealer, now: Self.nowMillis())
            return try openAddressed(.oneTime, to: local, in: db, now: access.now) { envelope in try open(envelope, access) }
        }
    }
}

extension FeedStore {
    /// The database's size in bytes (`page_count × page_size` after a WAL checkpoint): for the
    /// benchmarks' storage figures.
    public func storageBytes() throws(StoreError) -> Int {
        try truncateWriteAheadLog()
        do {
            return try database.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
                return pages * size
            }
        } catch {
            throw .database("\(error)")
        }
    }

    /// Copies the write-ahead log into the database file and truncates the log to zero bytes, so pages a transaction
    /// replaced (an explosion's cleared content) leave no older copy in the log. A reader holding an older snapshot
    /// keeps the log from being truncated; the next checkpoint does it.
    public func truncateWriteAheadLog() throws(StoreError) {
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw .database("\(error)")
        }
    }
}
