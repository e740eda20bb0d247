import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

@Suite("Sync state in the store (held sequences, missing blobs, per-peer record)")
struct SyncStateTests {
    @Test("entries pending ahead of a gap are the held sequences; linking them clears them")
    func heldSequences() throws {
        let store = try StoreFixtures.store()
        let feed = StoreFixtures.alice.feedID
        let chain = StoreFixtures.chain(10)
        #expect(try store.heldSequencesAhead(of: feed).isEmpty)
        _ = try store.ingest(StoreFixtures.lines(Array(chain[0..<3])))
        _ = try store.ingest(StoreFixtures.lines([chain[9], chain[8], chain[6]]))
        #expect(try store.head(of: feed)?.sequence == 2)
        #expect(try store.heldSequencesAhead(of: feed) == [6, 8, 9])
        _ = try store.ingest(StoreFixtures.lines([chain[3], chain[4], chain[5], chain[7]]))
        #expect(try store.heldSequencesAhead(of: feed).isEmpty)
        #expect(try store.head(of: feed)?.sequence == 9)
    }

    @Test("blobs referenced by readable posts but not held are missing until stored")
    func missingBlobs() throws {
        let store = try StoreFixtures.store()
        let blob: [UInt8] = Array(repeating: 7, count: 100)
        let hash = BlobCipher.contentHash(of: blob)
        let chain = StoreFixtures.chain(1) { _ in .post(Post(body: "photo", attachments: [hash])) }
        _ = try store.ingest(StoreFixtures.lines(chain), decryptor: StoreFixtures.PlainDecryptor())
        #expect(try store.missingReferencedBlobs() == [hash])
        try store.putBlob(blob)
        #expect(try store.missingReferencedBlobs().isEmpty)
    }

    @Test("each session adds to the peer's record")
    func peerRecord() throws {
        let store = try StoreFixtures.store()
        #expect(try store.syncPeerRecord(peerKey: "peer") == nil)
        try store.recordSyncSession(peerKey: "peer", outcome: SyncSessionOutcome(completed: false, messagesReceived: 3, messagesSent: 1, blobsReceived: 0), nowMillis: 1_000)
        try store.recordSyncSession(peerKey: "peer", outcome: SyncSessionOutcome(completed: true, messagesReceived: 2, messagesSent: 0, blobsReceived: 1), nowMillis: 2_000)
        try store.recordSyncSession(peerKey: "peer", outcome: SyncSessionOutcome(completed: false, messagesReceived: 0, messagesSent: 0, blobsReceived: 0), nowMillis: 3_000)
        let record = try #require(try store.syncPeerRecord(peerKey: "peer"))
        #expect(record == SyncPeerRecord(
            peerKey: "peer", lastAttemptAt: 3_000, lastCompletedAt: 2_000, sessions: 3, interruptedSessions: 2,
            messagesReceived: 5, messagesSent: 1, blobsReceived: 1
        ))
        #expect(try store.syncPeerRecords().map(\.peerKey) == ["peer"])
    }
}
