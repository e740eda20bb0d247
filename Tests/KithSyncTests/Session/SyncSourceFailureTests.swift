import KithIdentity
import KithSync
import Testing

/// Runs one session between two in-memory sources over a fresh simulated link.
func runInMemorySession(
    _ parties: LinkParties,
    alice: any SyncFeedSource,
    bob: any SyncFeedSource
) async throws -> (alice: SyncSessionReport, bob: SyncSessionReport) {
    let (central, peripheral) = SimulatedBLELink.makePair()
    let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
    let aliceLink = try connected.get()
    let bobLink = try accepted.get()
    async let bobReport = SyncSession(link: bobLink, source: bob, clock: peripheral).run()
    let aliceReport = await SyncSession(link: aliceLink, source: alice, clock: central).run()
    return (aliceReport, await bobReport)
}

/// A failing local store stops the session and says so; it is never read as "nothing held",
/// "nothing to offer" or "the peer's messages are invalid" (issue 11, item 16).
@Suite("SyncSession on a failing local store", .timeLimit(.minutes(3)))
struct SyncSourceFailureTests {
    let parties = LinkParties()

    @Test("a failed ingest is a local failure, and the peer's valid messages are not acknowledged invalid")
    func ingestFailure() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 5) { Fixtures.envelope(300, seed: Int($0)) }
        await bob.failOn(.ingest)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.bob.localFailure?.operation == .ingest)
        #expect(!result.bob.completed && result.bob.interruption == nil)
        #expect(result.bob.messagesInvalid == 0)
        #expect(result.alice.messagesRefusedByPeer == 0)
        #expect(!result.alice.completed)
        #expect(await bob.sequences(of: feed).isEmpty)
        // Nothing was acknowledged, so a later session (store healthy again) sends everything.
        await bob.failOn(.ingest, false)
        let again = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(again.alice.completed && again.bob.completed)
        #expect(await bob.sequences(of: feed) == Array(0..<5))
    }

    @Test("a failed feed listing is a local failure, not an empty request list")
    func followedFeedsFailure() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 3) { Fixtures.envelope(300, seed: Int($0)) }
        await bob.failOn(.followedFeeds)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.bob.localFailure?.operation == .followedFeeds)
        #expect(!result.bob.completed && !result.alice.completed)
        #expect(result.bob.requestsSent == 0)
    }

    @Test("a failed read of what to offer is a local failure, not an offer of nothing")
    func outgoingFailure() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 3) { Fixtures.envelope(300, seed: Int($0)) }
        await alice.failOn(.outgoing)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.alice.localFailure?.operation == .outgoing)
        #expect(!result.alice.completed && !result.bob.completed)
        #expect(result.bob.messagesAccepted == 0)
    }

    @Test("a failed acknowledgement record is a local failure")
    func acknowledgedFailure() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 3) { Fixtures.envelope(300, seed: Int($0)) }
        await alice.failOn(.acknowledged)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.alice.localFailure?.operation == .acknowledged)
        #expect(!result.alice.completed)
    }

    @Test("a feed that cannot be served is withheld and reported; the session goes on")
    func withheldFeed() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let other = try Fixtures.feedID(0xB0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 3) { Fixtures.envelope(300, seed: Int($0)) }
        for sequence in UInt32(0)..<2 { await alice.append(feed: other, sequence: sequence, content: [7]) }
        await alice.follow(other); await bob.follow(other)
        await alice.withhold(feed)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.alice.feedsWithheld.keys.sorted { $0.rawBytes.lexicographicallyPrecedes($1.rawBytes) } == [feed])
        #expect(result.alice.localFailure == nil && result.alice.completed && result.bob.completed)
        #expect(await bob.sequences(of: feed).isEmpty)
        #expect(await bob.sequences(of: other) == [0, 1])
    }
}
