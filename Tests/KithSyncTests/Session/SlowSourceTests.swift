import KithIdentity
import KithSync
import Testing

/// A feed source that takes real time to answer, as a busy store or a loaded machine does.
private struct SlowFeedSource: SyncFeedSource {
    let base: InMemoryFeedSource
    let delay: Duration

    func followedFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [SyncFeedState] { try await base.followedFeeds(for: peer) }

    func servableFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [FeedID] { try await base.servableFeeds(for: peer) }

    func outgoing(feed: FeedID, above haveSequence: UInt32?, for peer: SyncPeer) async throws(SyncSourceError) -> SyncFeedBatch? {
        try? await Task.sleep(for: delay)
        return try await base.outgoing(feed: feed, above: haveSequence, for: peer)
    }

    func feedID(of envelope: [UInt8]) -> FeedID? { base.feedID(of: envelope) }

    func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async throws(SyncSourceError) -> [SyncIngestResult] {
        try await base.ingest(messages, from: peer)
    }

    func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async throws(SyncSourceError) {
        try await base.acknowledged(messageID, status: status, by: peer)
    }
}

@Suite("Slow stores are not mistaken for a stalled link", .timeLimit(.minutes(3)))
struct SlowSourceTests {
    let parties = LinkParties()

    /// Alice and Bob linked over a simulated radio whose stall grace period is a tenth of the
    /// default, far shorter than the stores' pauses.
    private func linkedPair() async throws -> (SimulatedBLEEndpoint, SimulatedBLEEndpoint, SecureLink, SecureLink) {
        var configuration = SimulatedBLEConfiguration()
        configuration.stallDetectionGraceSeconds = 0.02
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        return (central, peripheral, try connected.get(), try accepted.get())
    }

    /// While both sides wait for records, the send task is still looking up what to offer. The
    /// session declares that work to the simulated air, so no real-time grace period, however
    /// short, turns the pause into an idle timeout.
    @Test("a store slower than the stall grace period still completes the session")
    func slowOutgoingCompletes() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 6) { Fixtures.envelope(400, seed: Int($0)) }
        let (central, peripheral, aliceLink, bobLink) = try await linkedPair()
        let slowAlice = SlowFeedSource(base: alice, delay: .milliseconds(300))
        let slowBob = SlowFeedSource(base: bob, delay: .milliseconds(300))
        async let bobReport = SyncSession(link: bobLink, source: slowBob, clock: peripheral).run()
        let aliceReport = await SyncSession(link: aliceLink, source: slowAlice, clock: central).run()
        let bobResult = await bobReport
        #expect(aliceReport.completed && bobResult.completed)
        #expect(aliceReport.interruption == nil && bobResult.interruption == nil)
        #expect(bobResult.messagesAccepted == 6)
        #expect(await bob.sequences(of: feed) == Array(0..<6))
    }

    /// The detection still works: with nothing declared and nothing in flight, both sides time out.
    @Test("a peer that never answers still ends in an idle timeout")
    func silentPeerTimesOut() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let bob = InMemoryFeedSource()
        await bob.follow(feed)
        let (_, peripheral, aliceLink, bobLink) = try await linkedPair()
        // Alice's side only reads: she never sends her requests or `done`.
        async let bobReport = SyncSession(link: bobLink, source: bob, clock: peripheral).run()
        await #expect(throws: SecureLinkError.self) { while true { _ = try await aliceLink.receive() } }
        let bobResult = await bobReport
        #expect(!bobResult.completed)
        #expect(bobResult.interruption != nil)
    }
}
