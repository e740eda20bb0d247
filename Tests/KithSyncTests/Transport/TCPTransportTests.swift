import Crypto
import KithSync
import Testing

@Suite("TCP transport (SwiftNIO, loopback)", .timeLimit(.minutes(3)))
struct TCPTransportTests {
    let parties = LinkParties()

    @Test("a listener and a client sync two in-memory sources over SecureLink")
    func loopbackSync() async throws {
        // Timeouts are not under test here: a loaded machine once stalled this exchange past the default 30 s.
        let idleTimeout = 600.0
        let listener = try await TCPSyncListener.bind(port: 0, idleTimeout: idleTimeout)
        #expect(listener.port > 0)
        let feedA = try Fixtures.feedID(0xA0)
        let feedB = try Fixtures.feedID(0xB0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for sequence in 0..<50 {
            await alice.append(feed: feedA, sequence: UInt32(sequence), content: Fixtures.envelope(600, seed: sequence))
        }
        for sequence in 0..<7 {
            await bob.append(feed: feedB, sequence: UInt32(sequence), content: Fixtures.envelope(3000, seed: sequence))
        }
        for source in [alice, bob] {
            await source.follow(feedA)
            await source.follow(feedB)
        }
        let bobConfiguration = parties.configuration(parties.bob, allowing: [parties.alicePublic])
        async let bobReport: SyncSessionReport = {
            var iterator = listener.connections.makeAsyncIterator()
            guard let transport = await iterator.next() else { return SyncSessionReport() }
            let link = try await SecureLink.accept(over: transport, configuration: bobConfiguration)
            return await SyncSession(link: link, source: bob, clock: SystemSyncClock()).run()
        }()
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, idleTimeout: idleTimeout)
        #expect(transport.mtu == SyncLimits.maximumMTU)
        let link = try await SecureLink.connect(
            over: transport,
            configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: parties.bobPublic
        )
        let aliceReport = await SyncSession(link: link, source: alice, clock: SystemSyncClock()).run()
        let bobResult = try await bobReport
        await listener.close()
        #expect(aliceReport.completed && bobResult.completed, "alice: \(aliceReport), bob: \(bobResult)")
        #expect(bobResult.messagesAccepted == 50)
        #expect(aliceReport.messagesAccepted == 7)
        #expect(await bob.sequences(of: feedA) == (0..<50).map(UInt32.init))
        #expect(await alice.sequences(of: feedB) == (0..<7).map(UInt32.init))
    }

    @Test("frames round-trip with their length prefix; oversized and empty frames are refused")
    func framesRoundTrip() async throws {
        let listener = try await TCPSyncListener.bind(port: 0, mtu: 244)
        async let accepted = { () async -> TCPTransport? in
            var iterator = listener.connections.makeAsyncIterator()
            return await iterator.next()
        }()
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, mtu: 244)
        let server = try #require(await accepted)
        for length in [1, 2, 243, 244] {
            let frame = Fixtures.randomBytes(length, seed: UInt64(length))
            try await client.send(frame)
            #expect(try await server.receive() == frame)
        }
        await #expect(throws: SyncTransportError.frameTooLarge(size: 245, mtu: 244)) { try await client.send([UInt8](repeating: 1, count: 245)) }
        await #expect(throws: SyncTransportError.emptyFrame) { try await client.send([]) }
        await client.close()
        await #expect(throws: SyncTransportError.closed) { try await server.receive() }
        await listener.close()
    }

    @Test("a frame length above the MTU closes the connection")
    func invalidLengthCloses() async throws {
        let listener = try await TCPSyncListener.bind(port: 0, mtu: 100)
        async let accepted = { () async -> TCPTransport? in
            var iterator = listener.connections.makeAsyncIterator()
            return await iterator.next()
        }()
        // The client believes the MTU is 200; the server allows 100.
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, mtu: 200)
        let server = try #require(await accepted)
        try await client.send([UInt8](repeating: 7, count: 150))
        await #expect(throws: SyncTransportError.invalidFrameLength(150, mtu: 100)) { try await server.receive() }
        await client.close()
        await listener.close()
    }

    @Test("connecting to a closed port fails with a typed error")
    func connectFails() async throws {
        let listener = try await TCPSyncListener.bind(port: 0)
        let port = listener.port
        await listener.close()
        await #expect(throws: SyncTransportError.self) { try await TCPTransport.connect(host: "127.0.0.1", port: port) }
    }

    @Test("a silent peer is dropped after the idle timeout instead of holding a receive forever", arguments: [true, false])
    func silentPeerTimesOut(clientTimesOut: Bool) async throws {
        let listener = try await TCPSyncListener.bind(port: 0, idleTimeout: clientTimesOut ? 30 : 0.2)
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, idleTimeout: clientTimesOut ? 0.2 : 30)
        var iterator = listener.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        // Neither side sends: the side with the short timeout fails with it and closes, so the
        // other learns at once that the connection is gone.
        let (waiting, other) = clientTimesOut ? (client, accepted) : (accepted, client)
        await #expect(throws: SyncTransportError.idleTimeout) { try await waiting.receive() }
        await #expect(throws: SyncTransportError.closed) { try await other.receive() }
        await listener.close()
    }

    @Test("traffic keeps a connection alive past the idle timeout")
    func trafficResetsTheIdleTimer() async throws {
        // Exchanges every 0.1 s for 1.5 idle timeouts: the connection must outlive the timeout. A loaded machine can
        // stall this task longer than the timeout between two exchanges (CI once stalled past 8 s), and then the
        // timeout rightly fires; so each round is timed, and a run whose rounds were ever that far apart proves
        // nothing and is tried again with a longer timeout. A connection that dies although traffic never paused for
        // the timeout fails the test.
        var conclusive = false
        for idleTimeout in [2.0, 4.0, 8.0] where !conclusive {
            switch try await exchangeTraffic(idleTimeout: idleTimeout) {
            case .survived: conclusive = true
            case .stalled: continue
            case .died(let error, let longestPause):
                Issue.record("the connection died (\(error)) though traffic never paused for longer than \(longestPause) of a \(idleTimeout) s timeout")
                conclusive = true
            }
        }
    }

    private enum TrafficOutcome {
        case survived
        case stalled
        case died(any Error, longestPause: Duration)
    }

    /// Exchanges one-byte frames both ways every 0.1 s until 1.5 idle timeouts have passed. The pause that matters
    /// to either side's read-idle timer lies within the span from one round's start (or from before connecting) to
    /// the next round's end, so the longest such span bounds every real pause.
    private func exchangeTraffic(idleTimeout: Double) async throws -> TrafficOutcome {
        let listener = try await TCPSyncListener.bind(port: 0, idleTimeout: idleTimeout)
        // Both idle timers start once their connection is up, so no earlier than this.
        let beforeConnecting = ContinuousClock.now
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, idleTimeout: idleTimeout)
        var iterator = listener.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        let outcome = try await exchangeTraffic(between: client, and: accepted, idleTimeout: idleTimeout, since: beforeConnecting)
        await client.close()
        await listener.close()
        return outcome
    }

    private func exchangeTraffic(
        between client: TCPTransport, and accepted: TCPTransport, idleTimeout: Double, since begin: ContinuousClock.Instant
    ) async throws -> TrafficOutcome {
        let clock = ContinuousClock()
        var previousRoundStart = begin
        var longestPause = Duration.zero
        var round: UInt8 = 0
        while clock.now - begin < .seconds(idleTimeout * 1.5) {
            try await Task.sleep(for: .milliseconds(100))
            let roundStart = clock.now
            do {
                try await client.send([round])
                #expect(try await accepted.receive() == [round])
                try await accepted.send([round])
                #expect(try await client.receive() == [round])
            } catch {
                longestPause = max(longestPause, clock.now - previousRoundStart)
                return longestPause >= .seconds(idleTimeout) ? .stalled : .died(error, longestPause: longestPause)
            }
            longestPause = max(longestPause, clock.now - previousRoundStart)
            previousRoundStart = roundStart
            round &+= 1
        }
        return .survived
    }

    @Test("a connection accepted after the listener closed is closed, not left half-open")
    func acceptedAfterCloseIsClosed() async throws {
        let listener = try await TCPSyncListener.bind(port: 0)
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        // Nobody takes the connection; the listener closes with it still waiting in its queue.
        await listener.close()
        var iterator = listener.connections.makeAsyncIterator()
        if let waiting = await iterator.next() { await waiting.close() }
        await #expect(throws: SyncTransportError.closed) { try await client.receive() }
    }
}
