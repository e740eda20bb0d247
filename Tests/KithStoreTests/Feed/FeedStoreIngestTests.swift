import Crypto
import Foundation
import GRDB
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

@Suite struct FeedStoreIngestTests {
    typealias S = StoreFixtures

    @Test func inOrderChainIsStoredAndLinked() throws {
        let store = try S.store()
        let chain = S.chain(5)
        let report = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        #expect(report.outcomes.map(\.label) == Array(repeating: "stored", count: 5))
        #expect(try store.head(of: S.alice.feedID) == FeedHead(sequence: 4, messageID: chain[4].messageID))
        let messages = try store.messages(feed: S.alice.feedID)
        #expect(messages.count == 5)
        #expect(messages.contains { $0.content == .post(Post(body: "post 3")) })
    }

    @Test func reingestingIsANoOp() throws {
        let store = try S.store()
        let lines = S.lines(S.chain(3))
        _ = try store.ingest(lines)
        let again = try store.ingest(lines + lines)
        #expect(again.outcomes.allSatisfy { $0.label == "duplicate" })
        #expect(try store.messages().count == 3)
    }

    @Test func unknownFeedsAndBadSignaturesStoreNothing() throws {
        let store = try S.store()
        let bobs = try store.ingest(S.lines(S.chain(1, identity: S.bob)))
        #expect(bobs.outcomes.map(\.label) == ["rejected:unknown_feed"])
        var object = try #require(try CanonicalJSON.parse(S.chain(1)[0].canonicalBytes).objectValue)
        object["timestamp"] = .integer(5)
        let forged = try store.ingest([CanonicalJSON.serialize(object)])
        #expect(forged.outcomes.map(\.label) == ["rejected:bad_signature"])
        #expect(try store.messages().isEmpty)
        #expect(try store.head(of: S.alice.feedID) == nil)
    }

    /// Signatures checked ahead for a whole batch give exactly the outcomes of one entry per call.
    @Test func aBatchHasTheOutcomesOfOneEntryAtATime() throws {
        let chain = S.chain(6)
        var object = try #require(try CanonicalJSON.parse(chain[2].canonicalBytes).objectValue)
        object["timestamp"] = .integer(5)
        let forged = CanonicalJSON.serialize(object)  // position 2 with a signature that does not match
        let bobs = S.chain(2, identity: S.bob)
        let mixed: [[UInt8]] = [
            chain[0].canonicalBytes, chain[1].canonicalBytes, forged, chain[4].canonicalBytes, bobs[0].canonicalBytes,
            chain[2].canonicalBytes, chain[1].canonicalBytes, chain[3].canonicalBytes, forged, chain[5].canonicalBytes, Array("{}".utf8),
        ]
        let batched = try S.store()
        let batchLabels = try batched.ingest(mixed).outcomes.map(\.label)
        let single = try S.store()
        let singleLabels = try mixed.flatMap { try single.ingest([$0]).outcomes.map(\.label) }
        #expect(batchLabels == singleLabels)
        #expect(batchLabels[2] == "rejected:bad_signature")
        #expect(try batched.head(of: S.alice.feedID) == FeedHead(sequence: 5, messageID: chain[5].messageID))
        #expect(try single.head(of: S.alice.feedID) == FeedHead(sequence: 5, messageID: chain[5].messageID))
    }

    @Test func newestFirstIsHeldThenLinkedWhenTheGapFills() throws {
        let store = try S.store()
        let chain = S.chain(6)
        let first = try store.ingest(S.lines(Array(chain[2...].reversed())))
        #expect(first.outcomes.allSatisfy { $0.label == "pending" })
        #expect(try store.head(of: S.alice.feedID) == nil)
        #expect(try store.followedFeeds().first?.pendingCount == 4)
        let second = try store.ingest([chain[1].canonicalBytes, chain[0].canonicalBytes])
        #expect(second.outcomes.map(\.label) == ["pending", "stored"])
        #expect(second.promoted.count == 5)
        #expect(try store.head(of: S.alice.feedID)?.sequence == 5)
        #expect(try store.followedFeeds().first?.pendingCount == 0)
    }

    @Test func twoSignedMessagesAtOneSequenceAreForkEvidence() throws {
        let store = try S.store()
        let chain = S.chain(3)
        _ = try store.ingest(S.lines(chain))
        let rival = S.chain(1, startingAt: 2, previous: chain[1].messageID, body: { _ in .post(Post(body: "other")) })[0]
        let report = try store.ingest([rival.canonicalBytes])
        #expect(report.outcomes.map(\.label) == ["fork"])
        #expect(try store.head(of: S.alice.feedID)?.messageID == chain[2].messageID)
        #expect(try store.followedFeeds().first?.isForked == true)
        let evidence = try store.forkEvidence(feed: S.alice.feedID)
        #expect(evidence.count == 1 && evidence[0].kept == chain[2].messageID.string && evidence[0].conflicting == rival.messageID.string)
    }

    @Test func aSignedPreviousThatContradictsTheChainIsForkEvidence() throws {
        let store = try S.store()
        let chain = S.chain(3)
        _ = try store.ingest(S.lines(chain))
        let elsewhere = S.chain(1, startingAt: 3, previous: chain[0].messageID)[0]
        #expect(try store.ingest([elsewhere.canonicalBytes]).outcomes.map(\.label) == ["fork"])
        #expect(try store.forkEvidence(feed: S.alice.feedID).first?.reason == "previous_mismatch")
        #expect(try store.head(of: S.alice.feedID)?.sequence == 2)
    }

    @Test func pendingMessagesThatDisagreeAreForkEvidence() throws {
        let store = try S.store()
        let chain = S.chain(4)
        let rival = S.chain(2, startingAt: 2, previous: chain[1].messageID, body: { .post(Post(body: "rival \($0)")) })
        _ = try store.ingest([chain[3].canonicalBytes, rival[0].canonicalBytes])
        #expect(try store.followedFeeds().first?.isForked == true)
        _ = try store.ingest(S.lines(Array(chain[0...2])))
        // First come wins at a forked position; the loser is kept as evidence only.
        #expect((try store.head(of: S.alice.feedID)?.sequence ?? 0) >= 2)
        #expect(try store.forkEvidence(feed: S.alice.feedID).count >= 1)
    }

    @Test func signedSelfStubsLinkLikeEnvelopesAndAreRelayedVerbatim() throws {
        let store = try S.store()
        let chain = S.chain(4)
        let stubs = try [1, 2].map { try SelfStub.sign(chain[$0], with: S.alice) }
        let report = try store.ingest([chain[0].canonicalBytes, stubs[0].canonicalBytes, stubs[1].canonicalBytes, chain[3].canonicalBytes])
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "stored", "stored"])
        #expect(try store.head(of: S.alice.feedID)?.sequence == 3)
        let exported = try store.export(feed: S.alice.feedID)
        #expect(exported[1] == stubs[0].canonicalBytes && exported[2] == stubs[1].canonicalBytes)
        #expect(ChainVerifier(identityKey: S.alice.publicKeys.identityKey).verify(lines: exported).isValid)
        #expect(try store.ingest([stubs[0].canonicalBytes]).outcomes.map(\.label) == ["duplicate"])
    }

    @Test func stubsOutOfOrderAreHeldThenLinked() throws {
        let store = try S.store()
        let chain = S.chain(3)
        let stub = try SelfStub.sign(chain[1], with: S.alice)
        #expect(try store.ingest([chain[2].canonicalBytes, stub.canonicalBytes]).outcomes.map(\.label) == ["pending", "pending"])
        let report = try store.ingest([chain[0].canonicalBytes])
        #expect(report.promoted.count == 2)
        #expect(try store.head(of: S.alice.feedID)?.sequence == 2)
    }

    @Test func forgedStubsAreRejectedAndSignedConflictsAreForks() throws {
        let store = try S.store()
        let chain = S.chain(3)
        let forged = try SelfStub.sign(chain[1], with: S.bob)
        #expect(try store.ingest([chain[0].canonicalBytes, forged.canonicalBytes]).outcomes.map(\.label) == ["stored", "rejected:bad_signature"])
        _ = try store.ingest([chain[1].canonicalBytes, chain[2].canonicalBytes])
        let rival = S.chain(1, startingAt: 1, previous: chain[0].messageID, audience: .selfOnly, body: { _ in .post(Post(body: "rival")) })[0]
        let conflicting = try SelfStub.sign(rival, with: S.alice)
        #expect(try store.ingest([conflicting.canonicalBytes]).outcomes.map(\.label) == ["fork"])
        #expect(try store.followedFeeds().first?.isForked == true)
    }

    @Test func laterVersionsAreStoredForRelayAndAnchoredLikeStubs() throws {
        let store = try S.store()
        let chain = S.chain(1)
        var fields = JSONObject()
        fields["feed_id"] = .string(S.alice.feedID.string)
        fields["sequence"] = .integer(1)
        fields["version"] = .integer(2)
        fields["payload"] = .string("opaque")
        let v2 = CanonicalJSON.serialize(fields)
        let next = S.chain(1, startingAt: 2, previous: MessageID(hashing: v2))[0]
        let report = try store.ingest([chain[0].canonicalBytes, v2, next.canonicalBytes])
        #expect(report.outcomes.map(\.label) == ["stored", "relay", "stored"])
        #expect(try store.head(of: S.alice.feedID)?.sequence == 2)
    }

    /// Was "rejected and not stored"; now (issue 11 item 13) the authenticated envelope links and is withheld.
    @Test func contentTypeMismatchIsLinkedButNeverShown() throws {
        let store = try S.store()
        let bad = try Envelope.sign(
            UnsignedEnvelope(sequence: 0, timestamp: 0, previous: nil, type: "reaction", audience: .contacts, content: try Content.post(Post(body: "x")).canonicalBytes()),
            with: S.alice
        )
        let report = try store.ingest([bad.canonicalBytes], decryptor: S.PlainDecryptor())
        #expect(report.outcomes.map(\.label) == ["stored"])
        #expect(try store.messages().isEmpty)
        #expect(try store.head(of: S.alice.feedID)?.sequence == 0)
    }

    @Test func unreadableContentIsStoredOpaque() throws {
        let store = try S.store()
        _ = try store.ingest(S.lines(S.chain(2)))
        #expect(try store.messages().allSatisfy { $0.content == nil })
    }

    @Test func tombstoneHidesTheTargetAndClearsItsContentButKeepsTheRow() throws {
        let store = try S.store()
        let first = S.chain(1)[0]
        let tomb = S.chain(1, startingAt: 1, previous: first.messageID, body: { _ in .tombstone(Tombstone(targetMessage: first.messageID, reason: "retracted")) })[0]
        _ = try store.ingest([first.canonicalBytes, tomb.canonicalBytes], decryptor: S.PlainDecryptor())
        let target = try #require(try store.message(first.messageID))
        #expect(target.tombstoned && target.content == nil)
        let raw = try store.database.read { db in try Row.fetchOne(db, sql: "SELECT content_json, envelope_json FROM messages WHERE message_id = ?", arguments: [first.messageID.string]) }
        #expect((raw?["content_json"] as String?) == nil)
        #expect((raw?["envelope_json"] as String?) != nil)
    }

    @Test func decryptedContentIsSealedAtRest() throws {
        let store = try S.store()
        _ = try store.ingest(S.lines(S.chain(1, body: { _ in .post(Post(body: "secret words")) })), decryptor: S.PlainDecryptor())
        let stored = try store.database.read { db in try String.fetchOne(db, sql: "SELECT content_json FROM messages") }
        #expect(stored?.hasPrefix("s1.") == true)
        #expect(stored?.contains("secret") == false)
        #expect(try store.messages().first?.content == .post(Post(body: "secret words")))
    }

    @Test func pendingIsBounded() throws {
        let store = FeedStore(database: try KithDatabase.open(path: nil), sealer: ContentSealer(storageKey: SymmetricKey(size: .bits256)), limits: StoreLimits(maxPendingPerFeed: 2))
        try store.follow(identityKey: S.alice.publicKeys.identityKey)
        let chain = S.chain(5)
        let report = try store.ingest(S.lines(Array(chain[1...].reversed())))
        #expect(report.outcomes.map(\.label) == ["pending", "pending", "rejected:pending_limit", "rejected:pending_limit"])
    }

    @Test func acknowledgedBatchesSurviveReopening() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("kith.sqlite").path
        let key = SymmetricKey(size: .bits256)
        let chain = S.chain(4)
        do {
            let store = try FeedStore(path: path, storageKey: key)
            try store.follow(identityKey: S.alice.publicKeys.identityKey)
            _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        }
        let reopened = try FeedStore(path: path, storageKey: key)
        #expect(try reopened.head(of: S.alice.feedID)?.sequence == 3)
        #expect(try reopened.messages().count == 4)
        let mode = try reopened.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func aFailingBatchRollsBackEntirely() throws {
        let store = try S.store()
        let chain = S.chain(3)
        struct Boom: ContentDecryptor {
            let failOn: MessageID
            func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? {
                if envelope.messageID == failOn { return Array("{\"type\":\"reaction\"}".utf8) }
                return try envelope.contentBytes()
            }
        }
        // The content error of message 2 withholds its content only (item 13): all three link.
        let report = try store.ingest(S.lines(chain), decryptor: Boom(failOn: chain[2].messageID))
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "stored"])
        // A database failure mid-batch (here: the table vanishes) rolls back everything of that batch.
        let more = S.chain(2, startingAt: 3, previous: chain[2].messageID)
        try store.database.write { db in try db.execute(sql: "CREATE TRIGGER boom BEFORE INSERT ON messages WHEN NEW.sequence = 4 BEGIN SELECT RAISE(ABORT, 'disk full'); END") }
        #expect(throws: StoreError.self) { try store.ingest(S.lines(more)) }
        #expect(try store.head(of: S.alice.feedID)?.sequence == 2)
    }
}
