import Foundation
import GRDB
import Testing
@testable import KithStore

/// The connection settings the durability promise of ``FeedStore/ingest(_:decryptor:)`` rests on.
@Suite struct KithDatabaseTests {
    private func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("kith.sqlite").path
    }

    @Test func anOnDiskDatabaseUsesWALWithSynchronousFull() throws {
        let database = try KithDatabase.open(path: try temporaryPath())
        let (mode, synchronous) = try database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(synchronous == KithDatabase.synchronousFull)
    }

    @Test func aNewDatabaseUsesTheConfiguredPageSize() throws {
        let database = try KithDatabase.open(path: try temporaryPath())
        #expect(try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == KithDatabase.pageSize)
    }

    @Test func reopeningKeepsSynchronousFull() throws {
        let path = try temporaryPath()
        _ = try KithDatabase.open(path: path)
        let reopened = try KithDatabase.open(path: path)
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == KithDatabase.synchronousFull)
    }
}
