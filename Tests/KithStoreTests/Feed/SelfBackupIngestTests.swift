import KithFeed
import KithIdentity
import Testing
@testable import KithStore

/// Issue 11 item 4: a `--include-self` backup imported over a peer export (with stubs).
@Suite struct SelfBackupIngestTests {
    typealias S = StoreFixtures

    /// Six messages; 0, 1 and 3 are self messages, the others go to contacts.
    static func mixedChain() -> [Envelope] {
        var chain: [Envelope] = []
        for index in 0..<6 {
            let audience: Audience = [0, 1, 3].contains(index) ? .selfOnly : .contacts
            chain += S.chain(1, startingAt: index, previous: chain.last?.messageID, audience: audience)
        }
        return chain
    }

    @Test func upgradingHeldStubsToTheirEnvelopesKeepsTheHead() throws {
        let store = try S.store()
        let chain = Self.mixedChain()
        // The peer export: self messages as their signed stubs, the others whole.
        let peer = try chain.map { $0.audience == .selfOnly ? try SelfStub.sign($0, with: S.alice).canonicalBytes : $0.canonicalBytes }
        #expect(try store.ingest(peer).outcomes.allSatisfy { $0.label == "stored" })
        // The backup: the same positions as full envelopes, in one batch and streamed.
        let backup = S.lines(chain)
        let report = try store.ingest(backup)
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "duplicate", "stored", "duplicate", "duplicate"])
        #expect(try store.head(of: S.alice.feedID) == FeedHead(sequence: 5, messageID: chain[5].messageID))
        #expect(try store.messages(limit: 10).count == 6)
        #expect(try store.ingest(streaming: backup).outcomes.map(\.label) == Array(repeating: "duplicate", count: 6))
    }

    @Test func aStubUpgradeAmongNewEntriesLinksTheNewOnes() throws {
        let store = try S.store()
        let chain = Self.mixedChain()
        let peer = try chain[0..<3].map { $0.audience == .selfOnly ? try SelfStub.sign($0, with: S.alice).canonicalBytes : $0.canonicalBytes }
        _ = try store.ingest(peer)
        // Upgrading 0 and 1, then linking 3...5 in the same transaction.
        let report = try store.ingest(streaming: S.lines(chain))
        #expect(report.outcomes.map(\.label) == ["stored", "stored", "duplicate", "stored", "stored", "stored"])
        #expect(try store.head(of: S.alice.feedID)?.sequence == 5)
        #expect(try store.messages(limit: 10).count == 6)
    }
}
