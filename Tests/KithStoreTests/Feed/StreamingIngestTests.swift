import KithCanonical
import Crypto
import Foundation
import GRDB
import KithFeed
import KithIdentity
import Synchronization
import Testing
@testable import KithStore

/// `FeedStore.ingest(streaming:)`: consecutive transactions, signatures checked ahead of each.
@Suite struct StreamingIngestTests {
    typealias S = StoreFixtures
    typealias E = ContentEffectsTests

    /// Collects progress reports (called on the ingesting thread).
    final class ProgressLog: Sendable {
        let reports = Mutex<[IngestProgress]>([])
        func record(_ progress: IngestProgress) { reports.withLock { $0.append(progress) } }
        var all: [IngestProgress] { reports.withLock { $0 } }
    }

    @Test func commitsOneTransactionPerBatchAndReportsEach() throws {
        let store = try S.store()
        let chain = S.chain(25)
        let log = ProgressLog()
        let report = try store.ingest(streaming: S.lines(chain), batchSize: 4, progress: log.record)
        #expect(report.outcomes.map(\.label) == Array(repeating: "stored", count: 25))
        #expect(try store.head(of: S.alice.feedID)?.messageID == chain[24].messageID)
        let progress = log.all
        #expect(progress.map(\.batches) == Array(1...7))
        #expect(progress.map(\.committed) == [4, 8, 12, 16, 20, 24, 25])
        #expect(progress.last?.accepted == 25 && progress.last?.refused == 0)
    }

    /// A batch large enough for its signatures to be checked on every core gets the verdicts of checking them one by
    /// one: a badly signed entry in the middle is refused, the others stored, on both ingest paths.
    @Test func signaturesCheckedConcurrentlyGiveTheSameVerdicts() throws {
        let count = ConcurrentChecks.minimumChecks * 3
        let chain = S.chain(count)
        let forged = try E.envelope(.post(Post(body: "forged")), sequence: 20, previous: chain[19].messageID, signer: S.bob).canonicalBytes
        var input = S.lines(chain)
        input[20] = forged
        for report in [try S.store().ingest(streaming: input), try S.store().ingest(input)] {
            #expect(report.outcomes.prefix(20).allSatisfy { $0.label == "stored" })
            #expect(report.outcomes[20].label.hasPrefix("rejected"))
            #expect(report.outcomes.suffix(from: 21).allSatisfy { $0.label == "pending" })
        }
        #expect(ConcurrentChecks.run(count: count) { $0 % 3 == 0 } == (0..<count).map { $0 % 3 == 0 })
    }

    @Test func newestFirstAcrossBatchesIsHeldThenLinked() throws {
        let store = try S.store()
        let chain = S.chain(10)
        let report = try store.ingest(streaming: S.lines(chain.reversed()), batchSize: 3)
        // Everything but the genesis waits for its predecessor; the genesis links the whole run.
        #expect(report.outcomes.map(\.label) == Array(repeating: "pending", count: 9) + ["stored"])
        #expect(report.promoted.count == 9)
        #expect(try store.head(of: S.alice.feedID)?.sequence == 9)
        #expect(try store.followedFeeds().first?.pendingCount == 0)
    }

    @Test func outcomesMatchTheOneTransactionPath() throws {
        let chain = S.chain(6)
        // Alice's position 3 signed by Bob's key: well formed, badly signed.
        let forged = try E.envelope(.post(Post(body: "forged")), sequence: 3, previous: chain[2].messageID, signer: S.bob).canonicalBytes
        let rival = S.chain(1, startingAt: 2, previous: chain[1].messageID, body: { _ in .post(Post(body: "rival")) })[0]
        let stranger = S.chain(1, identity: S.bob)[0]
        let input: [[UInt8]] = [
            chain[0].canonicalBytes, chain[1].canonicalBytes, chain[1].canonicalBytes, Array("{not json".utf8),
            chain[2].canonicalBytes, rival.canonicalBytes, forged, stranger.canonicalBytes, chain[5].canonicalBytes,
            chain[4].canonicalBytes, chain[3].canonicalBytes,
        ]
        let oneShot = try S.store().ingest(input)
        for batchSize in [1, 2, 3, 100] {
            let streamed = try S.store().ingest(streaming: input, batchSize: batchSize)
            #expect(streamed.outcomes == oneShot.outcomes, "batch size \(batchSize)")
            #expect(streamed.promoted == oneShot.promoted, "batch size \(batchSize)")
        }
        #expect(oneShot.outcomes.map(\.label) == [
            "stored", "stored", "duplicate", "rejected:malformed_json", "stored", "fork", "rejected:bad_signature",
            "rejected:unknown_feed", "pending", "pending", "stored",
        ])
    }

    @Test func aRotationInOneBatchIsHonouredByTheSignaturesOfTheNext() throws {
        // The next batch is checked ahead with the feed's original key, before the rotation is
        // linked; the transaction sees the rotation and verifies with the new key instead.
        let store = try ContactStoreTests.localStore()
        try ContactStoreTests.add(S.alice, to: store)
        let chain = try E.chain([
            (.post(Post(body: "before")), S.alice),
            (try E.rotation(to: E.alice2, signedBy: S.alice), S.alice),
            (.post(Post(body: "after")), E.alice2),
            (.post(Post(body: "after again")), E.alice2),
        ])
        let report = try store.ingest(streaming: S.lines(chain), batchSize: 2, decryptor: S.PlainDecryptor())
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "stored", "stored"])
    }

    @Test func aFailedBatchKeepsTheCommittedOnesAndStoresNothingOfItself() throws {
        let store = try S.store()
        try store.database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_seven BEFORE INSERT ON messages WHEN NEW.sequence = 7 BEGIN SELECT RAISE(ABORT, 'refused by test'); END")
        }
        let log = ProgressLog()
        #expect(throws: StoreError.self) {
            try store.ingest(streaming: S.lines(S.chain(12)), batchSize: 3, progress: log.record)
        }
        // Batches 0-2 and 3-5 committed and were reported; 6-8 rolled back; 9-11 never started.
        #expect(log.all.map(\.committed) == [3, 6])
        #expect(try store.head(of: S.alice.feedID)?.sequence == 5)
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages") } == 6)
    }

    @Test func anEmptyStreamCommitsNothing() throws {
        let log = ProgressLog()
        let report = try S.store().ingest(streaming: [[UInt8]](), progress: log.record)
        #expect(report.outcomes.isEmpty && log.all.isEmpty)
    }
}
