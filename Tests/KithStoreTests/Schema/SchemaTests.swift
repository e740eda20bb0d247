import Crypto
import GRDB
import Testing
@testable import KithStore

@Suite struct SchemaTests {
    @Test func specTablesAndIndexesExist() throws {
        let database = try KithDatabase.open(path: nil)
        let names = try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'") }
        for table in ["messages", "blobs", "contacts", "mls_groups", "mls_group_members", "dr_sessions"] {
            #expect(names.contains(table), "\(table)")
        }
        for index in ["idx_messages_feed_seq", "idx_messages_timestamp", "idx_messages_type", "idx_messages_received_at"] {
            #expect(names.contains(index), "\(index)")
        }
        let columns = try database.read { db in try db.columns(in: "messages").map(\.name) }
        #expect(columns == ["message_id", "feed_id", "sequence", "timestamp", "type", "audience", "envelope_json", "content_json", "tombstoned", "received_at"])
        let contactColumns = try database.read { db in try db.columns(in: "contacts").map(\.name) }
        #expect(Array(contactColumns.prefix(9)) == ["feed_id", "display_name", "avatar_hash", "identity_key_pub", "dh_key_pub", "pq_key_pub", "contacts_key", "added_at", "last_seen_seq"])
    }

    @Test func uniqueFeedSequenceIsEnforcedByTheDatabaseToo() throws {
        let database = try KithDatabase.open(path: nil)
        try database.write { db in
            try db.execute(sql: "INSERT INTO messages(message_id, feed_id, sequence, timestamp, type, audience, envelope_json, received_at) VALUES ('a', 'f', 0, 0, 'post', 'self', '{}', 0)")
        }
        #expect(throws: (any Error).self) {
            try database.write { db in
                try db.execute(sql: "INSERT INTO messages(message_id, feed_id, sequence, timestamp, type, audience, envelope_json, received_at) VALUES ('b', 'f', 0, 0, 'post', 'self', '{}', 0)")
            }
        }
    }

    @Test func sealerBindsContext() throws {
        let sealer = ContentSealer(storageKey: SymmetricKey(size: .bits256))
        let sealed = sealer.seal(Array("hello".utf8), context: "m1")
        #expect(try sealer.open(sealed, context: "m1") == Array("hello".utf8))
        #expect(throws: StoreError.self) { try sealer.open(sealed, context: "m2") }
        #expect(throws: StoreError.self) { try ContentSealer(storageKey: SymmetricKey(size: .bits256)).open(sealed, context: "m1") }
        #expect(throws: StoreError.self) { try sealer.open("garbage", context: "m1") }
    }
}
