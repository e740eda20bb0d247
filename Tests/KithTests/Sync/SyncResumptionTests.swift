import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithSync
import Testing
@testable import Kith

/// Message ids (raw) of the entries of Alice's feed that Bob holds, linked or pending ahead of a gap.
private func heldIDs(_ bob: Account, of alice: Account) throws -> Set<[UInt8]> {
    let entries = try alice.store.export(feed: alice.feedID, forPeer: true)
    let linked = try bob.store.head(of: alice.feedID).map { Int($0.sequence) + 1 } ?? 0
    let pending = try bob.store.heldSequencesAhead(of: alice.feedID).map(Int.init)
    return Set((Array(0..<linked) + pending).filter { $0 < entries.count }.map { SyncMessageID(envelope: entries[$0]).bytes })
}

@Suite("Exact resumption over SQLite (held ranges)", .timeLimit(.minutes(3)))
struct SyncResumptionTests {
    @Test("cut at random points with fresh sources each session: nothing Bob holds is re-sent, nothing duplicated")
    func randomCuts() async throws {
        // A property over random cut points (PropertyBased is not a dependency of this target,
        // so the inputs come from a seeded generator).
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<6 {
            let firstCut = 2_500 + Int(random.next() % 9_500)
            let secondCut = 2_500 + Int(random.next() % 9_500)
            let (alice, bob) = try await SyncPair.met()
            for index in 0..<30 {
                try await alice.publishing.post("note \(index) " + String(repeating: "abcdefgh", count: 40), audience: .contacts)
            }
            var resent = 0
            var duplicates = 0
            var completed = false
            for round in 0..<8 where !completed {
                let held = try heldIDs(bob, of: alice)
                var configuration = SimulatedBLEConfiguration(mtu: 182, bandwidthBitsPerSecond: 100_000)
                configuration.disconnectAfterBytes = [firstCut, secondCut].indices.contains(round) ? [firstCut, secondCut][round] : nil
                let outcome = await SyncPair.session(alice, bob, configuration: configuration)
                resent += outcome.aliceSent.filter { held.contains($0.bytes) }.count
                duplicates += outcome.bob.messagesDuplicate
                completed = configuration.disconnectAfterBytes == nil && outcome.alice.completed && outcome.bob.completed
            }
            #expect(completed)
            #expect(resent == 0)
            #expect(duplicates == 0)
            #expect(try bob.store.head(of: alice.feedID) == alice.store.head(of: alice.feedID))
        }
    }

    @Test("pending entries are declared held; a restarted sender skips them")
    func declaredHeld() async throws {
        let (alice, bob) = try await SyncPair.met()
        // The cut below is placed among the posts: no automatic KeyPackage offer (and prekey refill) travels before them.
        for account in [alice, bob] { try await account.groups.setAutomaticKeyOffers(false) }
        for index in 0..<20 { try await alice.publishing.post("post \(index) " + String(repeating: "z", count: 300), audience: .contacts) }
        var configuration = SimulatedBLEConfiguration(mtu: 182)
        configuration.disconnectAfterBytes = 6_000
        let first = await SyncPair.session(alice, bob, configuration: configuration)
        #expect(!first.alice.completed)
        let pending = try bob.store.heldSequencesAhead(of: alice.feedID)
        #expect(!pending.isEmpty)
        let second = await SyncPair.session(alice, bob)
        #expect(second.alice.completed && second.bob.completed)
        #expect(second.alice.messagesSkippedAsHeld == pending.count)
        #expect(second.bob.messagesDuplicate == 0)
        #expect(try bob.store.heldSequencesAhead(of: alice.feedID).isEmpty)
    }

    @Test("every session is recorded per peer in sync_peer_state")
    func peerRecord() async throws {
        let (alice, bob) = try await SyncPair.met()
        try await alice.publishing.post("hello", audience: .contacts)
        _ = await SyncPair.session(alice, bob)
        let agent = SyncAgent(account: bob)
        let record = try #require(await agent.source.peerRecord(SyncPeer(staticKey: Array(alice.identity.dhKey.publicKey.rawRepresentation))))
        #expect(record.sessions == 1)
        #expect(record.lastCompletedAt != nil)
        #expect(record.messagesReceived >= 1)
    }
}
