import Crypto
import Hummingbird
import HummingbirdTesting
import KithIdentity
import KithRendezvous
import KithServer
import KithSync
import Synchronization
import Testing

/// What a relay session reported, in order.
final class RelayEventLog: Sendable {
    private let events = Mutex<[RelayEvent]>([])
    func record(_ event: RelayEvent) { events.withLock { $0.append(event) } }
    var all: [RelayEvent] { events.withLock { $0 } }
}

extension RelayPairing {
    /// A join code offered by a fresh device and accepted by another: the room and both devices.
    func pairedRoom() async throws -> (room: RoomID, first: DeviceID, second: DeviceID) {
        let code = JoinCode.randomDigits()
        let (first, second) = (DeviceID.random(), DeviceID.random())
        try await offer(code, device: first)
        return (try await accept(code, device: second), first, second)
    }
}

@Suite("Relay clients clean up after themselves, notice a dead socket, and reconnect with backoff")
struct RelayReconnectTests {
    /// Fast retries and heartbeats for loopback tests (the real numbers are 0.5 s…30 s, 25 s and 10 s).
    static let policy = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .seconds(1), maximumAttempts: 20, maximumTotal: .seconds(170))
    /// Slack for a loaded machine: a pong later than 5 s would only add a reconnection, which the tests tolerate.
    static let timeouts = RelayTimeouts(peer: .seconds(170), idle: .seconds(170), heartbeatInterval: .milliseconds(200), heartbeatTimeout: .seconds(5))
    /// The real heartbeat (25 s, 10 s): where no drop is expected at all.
    static let quietTimeouts = RelayTimeouts(peer: .seconds(170), idle: .seconds(170))

    /// Runs `body` with a live server, a proxy to it, and a paired room (its two devices).
    static func withProxiedRoom(
        _ body: @Sendable (CuttableProxy, RelayPairing, RoomID, DeviceID, DeviceID) async throws -> Void
    ) async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let proxy = try await CuttableProxy.start(to: port)
            defer { proxy.stop() }
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(port)")
            let (room, deviceA, deviceB) = try await pairing.pairedRoom()
            try await body(proxy, pairing, room, deviceA, deviceB)
        }
    }

    @Test("after a chat, both sides leave and purge: the server has no room left; the peer saw a departure, not a drop")
    func cleanupLeavesNoRoom() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let (room, deviceA, deviceB) = try await pairing.pairedRoom()
            let (logA, logB) = (RelayEventLog(), RelayEventLog())
            let url = pairing.signalingURL
            async let sideA: ChatMessage = RelayConnection.open(
                signalingURL: url, room: room, device: deviceA, timeouts: Self.quietTimeouts, reconnect: Self.policy, events: logA.record
            ) { transport, role in
                let chat = try await RelayChat.establish(over: transport, role: role, localStatic: .init())
                try await chat.send("hello")
                await chat.sayBye()
                return .bye
            }
            let received: [ChatMessage] = try await RelayConnection.open(
                signalingURL: url, room: room, device: deviceB, timeouts: Self.quietTimeouts, reconnect: Self.policy, events: logB.record
            ) { transport, role in
                let chat = try await RelayChat.establish(over: transport, role: role, localStatic: .init())
                return [try await chat.receive(), try await chat.receive()]
            }
            _ = try await sideA
            #expect(received == [.line("hello"), .bye])
            #expect(try await pairing.client.roomExists(room))
            let first = try await pairing.cleanUp(device: deviceA)
            let second = try await pairing.cleanUp(device: deviceB)
            #expect(first.roomsDeleted + second.roomsDeleted == 1)
            #expect(try await pairing.client.roomExists(room) == false)
            #expect(logA.all.isEmpty && logB.all.isEmpty)
        }
        let unreachable = try RelayPairing(serverURL: "http://127.0.0.1:9")
        await #expect(throws: RelayError.self) { try await unreachable.cleanUp(device: DeviceID.random()) }
    }

    @Test("a socket whose server stops answering (no pong within the timeout) is noticed as dropped")
    func heartbeatNoticesASilentServer() async throws {
        try await Self.withProxiedRoom { proxy, pairing, room, deviceA, deviceB in
            let (relaying, relayingInput) = AsyncStream.makeStream(of: Void.self)
            async let sideA: SyncTransportError? = RelayConnection.open(
                signalingURL: "ws://127.0.0.1:\(proxy.port)/", room: room, device: deviceA, timeouts: Self.timeouts
            ) { transport, _ in
                relayingInput.yield()
                do throws(SyncTransportError) {
                    _ = try await transport.receive()
                    return nil
                } catch {
                    return error
                }
            }
            async let sideB: Void = RelayConnection.open(signalingURL: pairing.signalingURL, room: room, device: deviceB, timeouts: Self.timeouts) { transport, _ in
                _ = try? await transport.receive()
            }
            for await _ in relaying { break }
            proxy.blackHole()
            #expect(try await sideA == .disconnected)
            try await sideB
        }
    }

    @Test("a socket cut or gone silent mid-sync reconnects, re-joins and syncs to completion: nothing lost, nothing twice", arguments: [false, true])
    func dropMidSessionStillCompletes(silent: Bool) async throws {
        try await Self.withProxiedRoom { proxy, pairing, room, deviceA, deviceB in

            let (alice, bob) = (Curve25519.KeyAgreement.PrivateKey(), Curve25519.KeyAgreement.PrivateKey())
            let (alicePublic, bobPublic) = (Array(alice.publicKey.rawRepresentation), Array(bob.publicKey.rawRepresentation))
            let (feedA, feedB) = (try RelaySyncTests.feedID(0xA0), try RelaySyncTests.feedID(0xB0))
            let (sourceA, sourceB) = (InMemoryFeedSource(), InMemoryFeedSource())
            for sequence in 0..<40 { await sourceA.append(feed: feedA, sequence: UInt32(sequence), content: Array(repeating: UInt8(sequence), count: 700)) }
            for sequence in 0..<5 { await sourceB.append(feed: feedB, sequence: UInt32(sequence), content: Array(repeating: 0x42, count: 3_000)) }
            for source in [sourceA, sourceB] {
                await source.follow(feedA)
                await source.follow(feedB)
            }
            let dropped = Mutex(false)
            @Sendable func sync(_ transport: RelayTransport, _ role: RelayRole, key: Curve25519.KeyAgreement.PrivateKey, peer: [UInt8], source: InMemoryFeedSource, dropsOnce: Bool) async throws -> SyncSessionReport {
                let configuration = RelaySyncTests.configuration(key, allowing: peer)
                let link = role == .initiator
                    ? try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: nil)
                    : try await SecureLink.accept(over: transport, configuration: configuration)
                // Mid-session: the secure link is up, nothing synced yet.
                if dropsOnce, dropped.withLock({ done in defer { done = true }; return !done }) {
                    if silent { proxy.blackHole() } else { proxy.cut() }
                }
                return await SyncSession(link: link, source: source, clock: SystemSyncClock()).run()
            }
            let (logA, logB) = (RelayEventLog(), RelayEventLog())
            async let reportA = RelayConnection.open(
                signalingURL: "ws://127.0.0.1:\(proxy.port)/", room: room, device: deviceA, timeouts: Self.timeouts,
                reconnect: Self.policy, events: logA.record, restartWhen: { !$0.completed }
            ) { transport, role in
                try await sync(transport, role, key: alice, peer: bobPublic, source: sourceA, dropsOnce: true)
            }
            let reportB = try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: deviceB, timeouts: Self.timeouts,
                reconnect: Self.policy, events: logB.record, restartWhen: { !$0.completed }
            ) { transport, role in
                try await sync(transport, role, key: bob, peer: alicePublic, source: sourceB, dropsOnce: false)
            }
            let finalA = try await reportA
            #expect(finalA.completed && reportB.completed)
            #expect(await sourceB.sequences(of: feedA) == (0..<40).map(UInt32.init))
            #expect(await sourceA.sequences(of: feedB) == (0..<5).map(UInt32.init))
            #expect(proxy.accepted >= 2)
            let eventsA = logA.all
            #expect(eventsA.first == .connectionLost)
            #expect(eventsA.contains(.reconnected) && eventsA.last == .resumed)
            #expect(eventsA.contains { if case .reconnecting(1, _) = $0 { true } else { false } })
            #expect(logB.all.contains(.peerConnectionLost) && logB.all.last == .resumed)
        }
    }
}
