import Crypto
import KithSync
import Testing

@Suite("TCP transport (SwiftNIO, loopback)", .timeLimit(.minutes(1)))
struct TCPTransportTests {
    let parties = LinkParties()

    @Test("a listener and a client sync two in-memory sources over SecureLink")
    func loopbackSync() async throws {
        let listener = try await TCPSyncListener.bind(port: 0)
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
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        #expect(transport.mtu == SyncLimits.maximumMTU)
        let link = try await SecureLink.connect(
            over: transport,
            configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: parties.bobPublic
        )
        let aliceReport = await SyncSession(link: link, source: alice, clock: SystemSyncClock()).run()
        let bobResult = try await bobReport
        await listener.close()
        #expect(aliceReport.completed && bobResult.completed)
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
        // The timeout leaves room for the stalls of a loaded machine (the whole suite runs in parallel on 2 cores:
        // a 3 s timeout once expired between two exchanges 0.1 s apart).
        let listener = try await TCPSyncListener.bind(port: 0, idleTimeout: 8)
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, idleTimeout: 8)
        var iterator = listener.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        // 9 s of exchanges every 0.1 s: longer than the timeout, never silent for that long.
        for round in 0..<90 {
            try await Task.sleep(for: .milliseconds(100))
            try await client.send([UInt8(round)])
            #expect(try await accepted.receive() == [UInt8(round)])
            try await accepted.send([UInt8(round)])
            #expect(try await client.receive() == [UInt8(round)])
        }
        await client.close()
        await listener.close()
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
