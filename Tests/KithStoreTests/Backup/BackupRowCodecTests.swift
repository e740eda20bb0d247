import Crypto
import GRDB
import KithFeed
import Testing
@testable import KithStore

/// The compact store records of a backup (`BackupRowEncoder`, `BackupRowDecoder`, `BackupTableHeader`) and the
/// derived `messages.message_id` (docs/CONTINUITY.md section 2).
@Suite struct BackupRowCodecTests {
    typealias S = StoreFixtures

    /// Every carried row of `store`, encoded, decoded and imported into a fresh store.
    static func roundTrip(_ store: FeedStore) throws -> (FeedStore, records: [BackupRowEncoder.Output]) {
        var encoder = BackupRowEncoder()
        var records: [BackupRowEncoder.Output] = []
        try store.backupExportRows(ownFeedID: "none", window: nil, includeBlobs: true) { row in records += encoder.encode(row) }
        var decoder = BackupRowDecoder()
        var rows: [BackupStoreRow] = []
        for record in records {
            switch record {
            case .tableHeader(let body): try decoder.readHeader(body)
            case .row(let body): rows.append(try decoder.readRow(body))
            }
        }
        let restored = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try restored.backupImport(rows)
        return (restored, records)
    }

    static func messages(_ store: FeedStore) throws -> [Row] {
        try store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM messages ORDER BY feed_id, sequence") }
    }

    @Test func messagesComeBackEqualWithTheirDerivedMessageIDs() throws {
        let store = try S.store()
        _ = try store.ingest(S.lines(S.chain(30)), decryptor: S.PlainDecryptor())
        let (restored, records) = try Self.roundTrip(store)
        let before = try Self.messages(store)
        #expect(before.count == 30)
        #expect(try Self.messages(restored) == before)
        #expect(try restored.backupRowCount("feeds") == store.backupRowCount("feeds"))
        // The message id is not in the file: the messages header does not name it.
        let headers = try records.compactMap { record -> BackupTableHeader? in
            guard case .tableHeader(let body) = record else { return nil }
            return try BackupTableHeader(decoding: body)
        }
        let messagesHeader = try #require(headers.first { $0.table == "messages" })
        #expect(!messagesHeader.names.contains("message_id"))
        #expect(messagesHeader.names.contains("envelope_json"))
    }

    @Test func consecutiveEqualValuesAreOneByteRepeats() throws {
        var encoder = BackupRowEncoder()
        let names = ["feed_id", "sequence", "type"]
        let first = encoder.encode(BackupStoreRow(table: "messages_x", names: names, values: [.text("feed"), .integer(1), .text("post")]))
        let second = encoder.encode(BackupStoreRow(table: "messages_x", names: names, values: [.text("feed"), .integer(2), .text("post")]))
        #expect(first.count == 2)  // header + row
        #expect(second == [.row([4, 1, 0, 0, 0, 0, 0, 0, 0, 2, 4])])
    }

    @Test func hostileHeadersAndRowsAreRefused() throws {
        var decoder = BackupRowDecoder()
        // A row before any header.
        #expect(throws: StoreError.self) { try decoder.readRow([0]) }
        // A table a backup never carries, even one that exists.
        for table in ["dr_sessions", "one_time_prekeys", "otk_own_keys", "no_such_table"] {
            #expect(throws: StoreError.self) { try decoder.readHeader(BackupTableHeader(table: table, names: ["a"]).encoded) }
        }
        // No columns, repeated or empty names, trailing bytes.
        #expect(throws: StoreError.self) { try decoder.readHeader([5] + Array("feeds".utf8) + [0]) }
        #expect(throws: StoreError.self) { try decoder.readHeader(BackupTableHeader(table: "feeds", names: ["a", "a"]).encoded) }
        #expect(throws: StoreError.self) { try decoder.readHeader(BackupTableHeader(table: "feeds", names: [""]).encoded) }
        #expect(throws: StoreError.self) { try decoder.readHeader(BackupTableHeader(table: "feeds", names: ["a"]).encoded + [0]) }
        // A derived column carried, or its source missing.
        #expect(throws: StoreError.self) {
            try decoder.readHeader(BackupTableHeader(table: "messages", names: ["message_id", "envelope_json"]).encoded)
        }
        #expect(throws: StoreError.self) { try decoder.readHeader(BackupTableHeader(table: "messages", names: ["feed_id"]).encoded) }

        try decoder.readHeader(BackupTableHeader(table: "feeds", names: ["feed_id", "note"]).encoded)
        // A repeat with no previous row, an unknown tag, a length past the end, too few or too many values.
        #expect(throws: StoreError.self) { try decoder.readRow([4, 0]) }
        #expect(throws: StoreError.self) { try decoder.readRow([9, 0]) }
        #expect(throws: StoreError.self) { try decoder.readRow([2, 0xFF, 0xFF, 0xFF, 0xFF, 0]) }
        #expect(throws: StoreError.self) { try decoder.readRow([0]) }
        #expect(throws: StoreError.self) { try decoder.readRow([0, 0, 0]) }
        #expect(throws: StoreError.self) { try decoder.readRow([2, 0, 0, 0, 1, 0xFF, 0]) }

        // A well-formed row naming a column the table does not have is refused by the import.
        let row = try decoder.readRow([2, 0, 0, 0, 1, 0x41, 0])
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        #expect(throws: StoreError.self) { try store.backupImport([row]) }
        #expect(try store.backupRowCount("feeds") == 0)
        // A row for a table a backup never carries is refused by the import too (not only by the decoder).
        #expect(throws: StoreError.self) {
            try store.backupImport([BackupStoreRow(table: "dr_sessions", names: ["contact_feed_id"], values: [.text("x")])])
        }
        // A NULL primary key (SQLite would store it for a TEXT key; readers would then fail on it) is refused.
        #expect(throws: StoreError.self) {
            try store.backupImport([BackupStoreRow(
                table: "contacts", names: ["feed_id", "identity_key_pub", "dh_key_pub", "pq_key_pub", "contacts_key", "added_at"],
                values: [.null, .text("i"), .text("d"), .text("p"), .text("k"), .integer(1)])])
        }
        #expect(try store.backupRowCount("contacts") == 0)
        // A messages row carrying the derived message id is refused by the import.
        let envelope = S.chain(1)[0]
        #expect(throws: StoreError.self) {
            try store.backupImport([BackupStoreRow(table: "messages", names: ["message_id", "envelope_json"],
                                                   values: [.text(envelope.messageID.string), .text(String(decoding: envelope.canonicalBytes, as: UTF8.self))])])
        }
    }
}
