import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

@Suite struct ChainVerifierTests {
    typealias F = FeedFixtures
    let verifier = ChainVerifier(identityKey: FeedFixtures.alice.publicKeys.identityKey)

    @Test func validChainVerifies() {
        let report = verifier.verify(lines: F.chain(6).map(\.canonicalBytes))
        #expect(report.isValid && report.accepted == 6)
    }

    @Test func signedStubsVerifyLikeEnvelopesEvenInRuns() throws {
        let chain = F.chain(5)
        var lines = chain.map(\.canonicalBytes)
        for index in [1, 2, 4] { lines[index] = try SelfStub.sign(chain[index], with: F.alice).canonicalBytes }
        let report = verifier.verify(lines: lines)
        #expect(report.isValid && report.accepted == 5)
    }

    @Test func forgedOrLyingStubsAreRejected() throws {
        let chain = F.chain(4)
        var lines = chain.map(\.canonicalBytes)
        // Signed by someone else under Alice's feed id.
        lines[1] = try SelfStub.sign(chain[1], with: F.bob).canonicalBytes
        #expect(verifier.verify(lines: lines).rejections.first?.code == "bad_signature")
        // A stub of Alice's altered after signing to claim another position.
        let lying = try SelfStub.sign(chain[3], with: F.alice)
        var object = try #require(try CanonicalJSON.parse(lying.canonicalBytes).objectValue)
        object["sequence"] = .integer(1)
        object["previous"] = .string(chain[0].messageID.string)
        lines[1] = CanonicalJSON.serialize(object)
        #expect(verifier.verify(lines: lines).rejections.first?.code == "bad_signature")
    }

    @Test func gapsBrokenLinksAndForeignKeysAreRejected() {
        let chain = F.chain(5).map(\.canonicalBytes)
        let gap = verifier.verify(lines: [chain[0], chain[1], chain[3], chain[4]])
        #expect(gap.rejections.first?.code == "sequence_gap" && gap.rejections.first?.line == 3)
        let bobs = F.chain(2, identity: F.bob).map(\.canonicalBytes)
        let mixed = verifier.verify(lines: [chain[0], bobs[1]])
        #expect(mixed.rejections.map(\.code).contains("feed_id_mismatch"))
        let other = ChainVerifier(identityKey: F.bob.publicKeys.identityKey).verify(lines: chain)
        #expect(other.rejections.count == 5)
    }

    @Test func aTamperedLineIsReportedWithItsSequence() {
        var lines = F.chain(4).map(\.canonicalBytes)
        var object = (try? CanonicalJSON.parse(lines[2]).objectValue) ?? JSONObject()
        object["timestamp"] = .integer(42)
        lines[2] = CanonicalJSON.serialize(object)
        let report = verifier.verify(lines: lines)
        #expect(report.rejections.map(\.code) == ["bad_signature", "chain_broken"])
        #expect(report.rejections.map(\.sequence) == [2, 3])
    }

    @Test func garbageLinesAreRejectedNotFatal() {
        let chain = F.chain(2).map(\.canonicalBytes)
        let report = verifier.verify(lines: [chain[0], Array("{not json".utf8), chain[1]])
        #expect(report.rejections.first?.code == "malformed_json")
        #expect(!report.isValid)
    }
}

@Suite struct ChainVerifierStreamingTests {
    typealias F = FeedFixtures
    let key = FeedFixtures.alice.publicKeys.identityKey

    /// A later-version line of `feed` (no signature: nothing v1 can check).
    static func laterVersion(_ feed: FeedID, _ sequence: Int64) -> [UInt8] {
        var object = JSONObject()
        object["feed_id"] = .string(feed.string)
        object["sequence"] = .integer(sequence)
        object["version"] = .integer(2)
        return CanonicalJSON.serialize(object)
    }

    @Test func consumeReportsPerLineAndSummaryCounts() {
        let chain = F.chain(4).map(\.canonicalBytes)
        var verifier = ChainVerifier(identityKey: key)
        #expect(verifier.consume(chain[0], number: 1).isEmpty)
        #expect(verifier.consume(chain[1], number: 2).isEmpty)
        let gap = verifier.consume(chain[3], number: 3)
        // Line 3 skips sequence 2: one verdict per entry, the placement rule's (ingest would hold it).
        #expect(gap.map(\.code) == ["sequence_gap"] && gap.allSatisfy { $0.line == 3 })
        #expect(verifier.summary == ChainVerifier.Summary(accepted: 2, foreign: 0, rejected: 1))
        let report = ChainVerifier(identityKey: key).verify(lines: [chain[0], chain[1], chain[3]])
        #expect(report.accepted == 2 && report.rejections.count == 1)
    }

    @Test func emptyLinesAreNotEntries() {
        let chain = F.chain(3).map(\.canonicalBytes)
        let report = ChainVerifier(identityKey: key).verify(lines: [chain[0], [], chain[1], [], [], chain[2], []])
        #expect(report.isValid && report.accepted == 3)
    }

    @Test func linesOfAnotherFeedAreRejectedWhateverTheirKind() throws {
        let chain = F.chain(3).map(\.canonicalBytes)
        let bobs = F.chain(3, identity: F.bob)
        let bobStub = try SelfStub.sign(bobs[1], with: F.bob).canonicalBytes
        let bobLater = Self.laterVersion(F.bob.feedID, 2)
        let report = ChainVerifier(identityKey: key).verify(lines: [chain[0], bobs[1].canonicalBytes, bobStub, bobLater])
        #expect(report.rejections.filter { $0.code == "feed_id_mismatch" }.map(\.line) == [2, 3, 4])
        #expect(report.foreign == 0 && report.accepted == 1)
        // A later-version line of the key's own feed is counted, not authenticated.
        let own = ChainVerifier(identityKey: key).verify(lines: [chain[0], chain[1], Self.laterVersion(F.alice.feedID, 2)])
        #expect(own.isValid && own.foreign == 1 && own.accepted == 2)
    }
}
