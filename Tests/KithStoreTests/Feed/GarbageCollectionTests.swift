import Crypto
import GRDB
import KithCanonical
import KithFeed
import Testing
@testable import KithStore

@Suite struct GarbageCollectionTests {
    typealias S = StoreFixtures

    @Test func prunesOldMessagesToStubsAndTheChainStillLinks() throws {
        let store = try S.store()
        let chain = S.chain(10)
        _ = try store.ingest(S.lines(chain))
        let report = try store.collectGarbage(GCPolicy(maxMessagesPerFeed: 4))
        #expect(report.prunedMessages == 6)
        #expect(try store.messages(feed: S.alice.feedID).count == 4)
        #expect(try store.head(of: S.alice.feedID)?.sequence == 9)
        let next = S.chain(1, startingAt: 10, previous: chain[9].messageID)[0]
        #expect(try store.ingest([next.canonicalBytes]).outcomes.map(\.label) == ["stored"])
        #expect(try store.ingest([chain[2].canonicalBytes]).outcomes.map(\.label) == ["duplicate"])
    }

    @Test func localFeedIsNeverPruned() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.follow(identityKey: S.alice.publicKeys.identityKey, isLocal: true)
        _ = try store.ingest(S.lines(S.chain(6)))
        #expect(try store.collectGarbage(GCPolicy(maxMessagesPerFeed: 2)).prunedMessages == 0)
    }

    @Test func unreferencedOldBlobsGoReferencedOnesStay() throws {
        let store = try S.store()
        let referenced = KithCanonical.Base64URL.encode([UInt8](repeating: 0x52, count: 32))
        let chain = S.chain(1, body: { _ in .post(Post(body: "pic", attachments: [referenced])) })
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let now: Int64 = 10 * 86_400_000
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO blobs(content_hash, data, size_bytes, stored_at) VALUES (?, x'00', 1, 0)", arguments: [referenced])
            try db.execute(sql: "INSERT INTO blobs(content_hash, data, size_bytes, stored_at) VALUES ('old', x'0000', 2, 0)")
            try db.execute(sql: "INSERT INTO blobs(content_hash, data, size_bytes, stored_at) VALUES ('new', x'000000', 3, ?)", arguments: [now - 1000])
        }
        let report = try store.collectGarbage(GCPolicy(nowMillis: now))
        #expect(report.deletedBlobs == 1 && report.freedBlobBytes == 2 && report.remainingBlobBytes == 4)
        let capped = try store.collectGarbage(GCPolicy(maxBlobBytes: 1, nowMillis: now))
        #expect(capped.deletedBlobs == 1 && capped.remainingBlobBytes == 1)
    }
}
