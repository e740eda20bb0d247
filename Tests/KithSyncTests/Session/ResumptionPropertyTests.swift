import KithIdentity
import KithSync
import PropertyBased
import Synchronization
import Testing

/// Message ids a session queued for sending, collected through the session observer.
private final class SentLog: Sendable {
    private let ids = Mutex<[SyncMessageID]>([])
    var all: [SyncMessageID] { ids.withLock { $0 } }
    func observer() -> @Sendable (SyncSessionEvent) -> Void {
        { event in
            if case .messageSent(let id, _, _) = event { self.ids.withLock { $0.append(id) } }
        }
    }
}

/// Runs one session, alice serving bob, and returns both reports and the ids alice queued.
private func session(
    _ parties: LinkParties, alice: InMemoryFeedSource, bob: InMemoryFeedSource, cutAfterBytes: Int?
) async throws -> (alice: SyncSessionReport, bob: SyncSessionReport, sent: [SyncMessageID]) {
    // No latency: every frame fully on the air before the cut arrives, so whether a cut leaves
    // bob holding something depends only on the bytes, not on how the two sides' frames interleave.
    var configuration = SimulatedBLEConfiguration(mtu: 182, latencySeconds: 0)
    configuration.disconnectAfterBytes = cutAfterBytes
    let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
    let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
    guard case .success(let aliceLink) = connected, case .success(let bobLink) = accepted else {
        return (SyncSessionReport(), SyncSessionReport(), [])  // the cut fell inside the handshake
    }
    let log = SentLog()
    async let bobReport = SyncSession(link: bobLink, source: bob, clock: peripheral).run()
    let aliceReport = await SyncSession(link: aliceLink, source: alice, clock: central, options: SyncSessionOptions(observer: log.observer())).run()
    return (aliceReport, await bobReport, log.all)
}

private func seeded(_ feed: FeedID, count: Int) async -> (InMemoryFeedSource, InMemoryFeedSource, [UInt32: SyncMessageID]) {
    let alice = InMemoryFeedSource()
    let bob = InMemoryFeedSource()
    var ids: [UInt32: SyncMessageID] = [:]
    for sequence in 0..<UInt32(count) {
        let content = Fixtures.envelope(300 + Int(sequence % 7) * 40, seed: Int(sequence))
        await alice.append(feed: feed, sequence: sequence, content: content)
        ids[sequence] = SyncMessageID(envelope: InMemoryFeedSource.envelope(feed: feed, sequence: sequence, content: content))
    }
    await alice.follow(feed)
    await bob.follow(feed)
    return (alice, bob, ids)
}

@Suite("Exact resumption (held ranges)", .timeLimit(.minutes(2)))
struct ResumptionPropertyTests {
    let parties = LinkParties()

    @Test("cut at random points, with the sender restarted each time: nothing bob holds is sent again")
    func nothingHeldIsResent() async throws {
        let feed = try Fixtures.feedID(0xA0)
        await propertyCheck(count: 12, input: Gen.int(in: 1_500...9_000), Gen.int(in: 1_500...9_000)) { firstCut, secondCut in
            let (alice, bob, _) = await seeded(feed, count: 30)
            let cuts = [firstCut, secondCut]
            var duplicates = 0
            var resent = 0
            for round in 0..<8 {
                // What bob holds before this session (linked or ahead of the gap).
                let heldBefore = Set(await bob.sequences(of: feed))
                // A restarted sender remembers no acknowledgements: only bob's requests protect him.
                await alice.forgetAcknowledgements()
                let cut = round < cuts.count ? cuts[round] : nil
                guard let result = try? await session(parties, alice: alice, bob: bob, cutAfterBytes: cut) else { continue }
                duplicates += result.bob.messagesDuplicate
                let heldIDs = Set(await alice.outgoingIDs(feed: feed, sequences: heldBefore))
                resent += result.sent.filter { heldIDs.contains($0) }.count
                if cut == nil, result.alice.completed { break }
            }
            #expect(resent == 0)
            #expect(duplicates == 0)
            #expect(await bob.sequences(of: feed) == (0..<30).map(UInt32.init))
        }
    }

    @Test("without held ranges the same cut re-sends what was acknowledged (the property is not vacuous)")
    func withoutHeldRangesResends() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob, _) = await seeded(feed, count: 30)
        await bob.setDeclaresHeldRanges(false)
        let first = try await session(parties, alice: alice, bob: bob, cutAfterBytes: 5_000)
        #expect(!first.alice.completed)
        let held = Set(await bob.sequences(of: feed))
        #expect(!held.isEmpty)
        await alice.forgetAcknowledgements()
        let second = try await session(parties, alice: alice, bob: bob, cutAfterBytes: nil)
        #expect(second.alice.completed)
        #expect(second.bob.messagesDuplicate == held.count)
    }

    @Test("with held ranges the resumed session skips exactly what bob holds")
    func skipsHeld() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob, _) = await seeded(feed, count: 30)
        _ = try await session(parties, alice: alice, bob: bob, cutAfterBytes: 5_000)
        let held = await bob.sequences(of: feed)
        #expect(!held.isEmpty && held.count < 30)
        await alice.forgetAcknowledgements()
        let second = try await session(parties, alice: alice, bob: bob, cutAfterBytes: nil)
        #expect(second.alice.completed && second.bob.completed)
        #expect(second.alice.messagesSkippedAsHeld == held.count)
        #expect(second.alice.messagesSent == 30 - held.count)
        #expect(second.bob.messagesDuplicate == 0)
    }
}
