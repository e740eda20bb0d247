import Crypto
import GRDB
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

/// Issue 11 item 2 (store half): later-version lines that nobody can authenticate never stall a feed.
@Suite struct UnauthenticatedBoundsTests {
    typealias S = StoreFixtures

    /// `{"feed_id":…,"sequence":N,"version":2}`: no signature, anyone can forge it.
    static func unsigned(_ feed: FeedID, _ sequence: Int64) -> [UInt8] {
        var object = JSONObject()
        object["feed_id"] = .string(feed.string)
        object["sequence"] = .integer(sequence)
        object["version"] = .integer(2)
        return CanonicalJSON.serialize(object)
    }

    static func count(_ store: FeedStore, _ sql: String) throws -> Int {
        try store.database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    @Test func tenThousandUnsignedLinesDoNotStopTheRealMessages() throws {
        let store = try S.store()
        let flood = (1...10_000).map { Self.unsigned(S.alice.feedID, Int64($0)) }
        _ = try store.ingest(streaming: flood)
        #expect(try Self.count(store, "SELECT COUNT(*) FROM pending_entries") <= StoreLimits().maxUnauthenticatedPendingPerFeed)
        #expect(try Self.count(store, "SELECT COUNT(*) FROM foreign_envelopes") <= StoreLimits().maxForeignEnvelopesPerFeed)
        // The real feed arrives newest first (as a sync sends it): everything is held, then links.
        let chain = S.chain(30)
        let report = try store.ingest(S.lines(chain.reversed()))
        #expect(report.outcomes.allSatisfy { $0.isAccepted })
        #expect(try store.head(of: S.alice.feedID) == FeedHead(sequence: 29, messageID: chain[29].messageID))
        // Held lines at linked positions are gone once the transaction ends.
        #expect(try Self.count(store, "SELECT COUNT(*) FROM pending_entries WHERE sequence <= 29") == 0)
    }

    @Test func signedEntriesAreNeverCountedWithUnsignedOnes() throws {
        let limits = StoreLimits(maxPendingPerFeed: 3, maxUnauthenticatedPendingPerFeed: 2, maxForeignEnvelopesPerFeed: 4, maxForeignEnvelopes: 6)
        let store = FeedStore(database: try KithDatabase.open(path: nil), sealer: ContentSealer(storageKey: SymmetricKey(size: .bits256)), limits: limits)
        try store.follow(identityKey: S.alice.publicKeys.identityKey)
        _ = try store.ingest((10...19).map { Self.unsigned(S.alice.feedID, Int64($0)) })
        // Oldest first: the two newest held lines stay.
        let held = try store.database.read { db in try Int.fetchAll(db, sql: "SELECT sequence FROM pending_entries ORDER BY sequence") }
        #expect(held == [18, 19])
        let chain = S.chain(4)
        #expect(try store.ingest(S.lines(Array(chain[1...]))).outcomes.map(\.label) == ["pending", "pending", "pending"])
        #expect(try store.ingest(S.lines([chain[0]])).outcomes.map(\.label) == ["stored"])
        #expect(try store.head(of: S.alice.feedID)?.sequence == 3)
    }

    @Test func relayStoreIsBoundedPerFeedAndOverallAndGCTrimsIt() throws {
        let limits = StoreLimits(maxForeignEnvelopesPerFeed: 4, maxForeignEnvelopes: 6)
        let store = FeedStore(database: try KithDatabase.open(path: nil), sealer: ContentSealer(storageKey: SymmetricKey(size: .bits256)), limits: limits)
        try store.follow(identityKey: S.alice.publicKeys.identityKey)
        // Feeds nobody here follows.
        _ = try store.ingest((0..<10).map { Self.unsigned(S.bob.feedID, Int64($0)) })
        #expect(try Self.count(store, "SELECT COUNT(*) FROM foreign_envelopes") == 4)
        let carol = FeedID(identityKey: Curve25519.Signing.PrivateKey().publicKey)
        _ = try store.ingest((0..<4).map { Self.unsigned(carol, Int64($0)) })
        #expect(try Self.count(store, "SELECT COUNT(*) FROM foreign_envelopes") == 6)
        // Rows written under older limits are trimmed by garbage collection.
        try store.database.write { db in
            for sequence in 100..<110 {
                let line = Self.unsigned(carol, Int64(sequence))
                try db.execute(
                    sql: "INSERT INTO foreign_envelopes(message_id, feed_id, sequence, version, envelope_json, received_at) VALUES (?, ?, ?, 2, ?, 0)",
                    arguments: [MessageID(hashing: line).string, carol.string, sequence, String(decoding: line, as: UTF8.self)]
                )
            }
        }
        let report = try store.collectGarbage(GCPolicy())
        #expect(report.evictedUnauthenticated == 10)
        #expect(try Self.count(store, "SELECT COUNT(*) FROM foreign_envelopes") == 6)
    }
}
