import Crypto
import KithIdentity
import KithSync
import Testing

/// Runs one session between two sources over a fresh simulated link.
private func runSession(
    _ parties: LinkParties,
    alice: InMemoryFeedSource,
    bob: InMemoryFeedSource,
    configuration: SimulatedBLEConfiguration = SimulatedBLEConfiguration(),
    capabilities: SyncCapabilities = .all
) async throws -> (alice: SyncSessionReport, bob: SyncSessionReport, air: SimulatedAirStatistics) {
    let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
    let (connected, accepted) = await parties.establish(
        central: central, peripheral: peripheral,
        initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic], capabilities: capabilities),
        responder: parties.configuration(parties.bob, allowing: [parties.alicePublic], capabilities: capabilities)
    )
    let aliceLink = try connected.get()
    let bobLink = try accepted.get()
    async let bobReport = SyncSession(link: bobLink, source: bob, clock: peripheral).run()
    let aliceReport = await SyncSession(link: aliceLink, source: alice, clock: central).run()
    return (aliceReport, await bobReport, await central.statistics())
}

private func seed(_ source: InMemoryFeedSource, feed: FeedID, count: Int, size: Int = 600) async {
    for sequence in 0..<count {
        await source.append(feed: feed, sequence: UInt32(sequence), content: Fixtures.envelope(size, seed: sequence))
    }
}

@Suite("SyncSession and resumption", .timeLimit(.minutes(3)))
struct SyncSessionTests {
    let parties = LinkParties()

    @Test("both feeds sync completely in one session, newest first", arguments: [20, 182, 244, 509])
    func fullSync(mtu: Int) async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let feedB = try Fixtures.feedID(0xB0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await seed(alice, feed: feedA, count: 20)
        await seed(bob, feed: feedB, count: 10)
        await alice.follow(feedA); await alice.follow(feedB)
        await bob.follow(feedB); await bob.follow(feedA)

        let result = try await runSession(parties, alice: alice, bob: bob, configuration: SimulatedBLEConfiguration(mtu: mtu))
        #expect(result.alice.completed)
        #expect(result.bob.completed)
        #expect(result.alice.messagesSent == 20 && result.alice.acknowledgementsReceived == 20)
        #expect(result.bob.messagesAccepted == 20)
        #expect(result.alice.messagesAccepted == 10)
        #expect(await bob.sequences(of: feedA) == (0..<20).map(UInt32.init))
        #expect(await alice.sequences(of: feedB) == (0..<10).map(UInt32.init))
        let order = await bob.ingestLog.filter { $0.feed == feedA }.map(\.sequence)
        #expect(order == (0..<20).reversed().map(UInt32.init))
    }

    @Test("only the delta above have_seq is sent")
    func delta() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await seed(alice, feed: feedA, count: 15)
        for sequence in 0..<10 { await bob.append(feed: feedA, sequence: UInt32(sequence), content: Fixtures.envelope(600, seed: sequence)) }
        await alice.follow(feedA); await bob.follow(feedA)
        let result = try await runSession(parties, alice: alice, bob: bob)
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.alice.messagesSent == 5)
        #expect(await bob.contiguousSequence(of: feedA) == 14)
    }

    @Test("an interrupted session resumes without resending acknowledged messages")
    func resumeAfterDisconnect() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await seed(alice, feed: feedA, count: 40)
        await alice.follow(feedA); await bob.follow(feedA)

        let first = try await runSession(parties, alice: alice, bob: bob, configuration: SimulatedBLEConfiguration(disconnectAfterBytes: 12_000))
        #expect(!first.alice.completed)
        #expect(first.alice.interruption != nil)
        let partial = await bob.sequences(of: feedA)
        #expect(!partial.isEmpty && partial.count < 40)
        #expect(partial == Array(UInt32(40 - partial.count)..<40))

        let second = try await runSession(parties, alice: alice, bob: bob)
        #expect(second.alice.completed && second.bob.completed)
        #expect(second.alice.messagesSent <= 40 - first.alice.acknowledgementsReceived)
        #expect(await bob.sequences(of: feedA) == (0..<40).map(UInt32.init))
    }

    @Test("under frame loss, repeated sessions converge")
    func lossConverges() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await seed(alice, feed: feedA, count: 30)
        await alice.follow(feedA); await bob.follow(feedA)
        var sessions = 0
        var sawLoss = false
        while await bob.sequences(of: feedA).count < 30, sessions < 12 {
            sessions += 1
            let configuration = SimulatedBLEConfiguration(lossProbability: 0.05, lossSeed: UInt64(sessions), lossStartsAfterFrames: 4)
            let result = try await runSession(parties, alice: alice, bob: bob, configuration: configuration)
            if result.air.framesLost > 0 { sawLoss = true }
        }
        #expect(sawLoss)
        #expect(await bob.sequences(of: feedA) == (0..<30).map(UInt32.init))
    }

    @Test("messages are sent by priority class, then request order, newest first (spec 8.5)")
    func priorityOrder() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let feedB = try Fixtures.feedID(0xB0)
        let feedC = try Fixtures.feedID(0xC0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for sequence in UInt32(0)..<4 {
            await alice.append(feed: feedA, sequence: sequence, content: [1], priority: sequence == 1 ? .keyMaterial : .content)
        }
        for sequence in UInt32(0)..<2 {
            await alice.append(feed: feedB, sequence: sequence, content: [2], priority: .lowUrgency)
            await alice.append(feed: feedC, sequence: sequence, content: [3], priority: .peerOwnFeed)
        }
        await bob.follow(feedA); await bob.follow(feedB); await bob.follow(feedC)
        let result = try await runSession(parties, alice: alice, bob: bob)
        #expect(result.bob.completed)
        let order = await bob.ingestLog.map { ($0.feed.rawBytes[0], $0.sequence) }
        let expected: [(UInt8, UInt32)] = [(0xC0, 1), (0xC0, 0), (0xA0, 1), (0xA0, 3), (0xA0, 2), (0xA0, 0), (0xB0, 1), (0xB0, 0)]
        #expect(order.map(\.0) == expected.map(\.0))
        #expect(order.map(\.1) == expected.map(\.1))
    }

    @Test("an envelope failing verification is acknowledged invalid")
    func invalidEnvelope() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await alice.append(feed: feedA, sequence: 0, content: [0xFF, 1, 2])
        await alice.append(feed: feedA, sequence: 1, content: [1, 2, 3])
        await alice.follow(feedA); await bob.follow(feedA)
        let result = try await runSession(parties, alice: alice, bob: bob)
        #expect(result.bob.completed)
        #expect(result.bob.messagesInvalid == 1)
        #expect(result.bob.messagesAccepted == 1)
        #expect(await bob.sequences(of: feedA) == [1])
    }

    @Test("unknown and unshared feeds get an empty offer")
    func unknownFeed() async throws {
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        await bob.follow(try Fixtures.feedID(0x11))
        let result = try await runSession(parties, alice: alice, bob: bob)
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.alice.requestsReceived == 1)
        #expect(result.alice.messagesSent == 0)
    }

    @Test("zstd envelopes put fewer bytes on the air than raw ones")
    func compressionSavesAir() async throws {
        let feedA = try Fixtures.feedID(0xA0)
        func airBytes(_ capabilities: SyncCapabilities) async throws -> Int {
            let alice = InMemoryFeedSource()
            let bob = InMemoryFeedSource()
            await seed(alice, feed: feedA, count: 20, size: 1500)
            await alice.follow(feedA); await bob.follow(feedA)
            let result = try await runSession(parties, alice: alice, bob: bob, capabilities: capabilities)
            #expect(result.bob.completed)
            #expect(await bob.sequences(of: feedA).count == 20)
            return result.air.bytesOnAir
        }
        let raw = try await airBytes([])
        let compressed = try await airBytes(.zstdEnvelopes)
        #expect(compressed < raw)
    }
}
