import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("Relay mode: binary frames between the two members of a room, unread and bounded")
struct RelayModeTests {
    typealias Received = RelayTestPeer.Received

    static func url(_ client: some TestClientProtocol) throws -> String { "ws://localhost:\(try #require(client.port))/" }

    /// Two peers joined in a fresh room (`code`), both past `room_ready`.
    static func joinedPair(_ client: some TestClientProtocol, code: String = "123456") async throws -> (RelayTestPeer, RelayTestPeer, RoomID) {
        let room = try #require(RoomID(try await client.pairedRoom(code, client1: "a-\(code)", client2: "b-\(code)")))
        let (alice, _) = try await RelayTestPeer.connect(try url(client))
        let (bob, _) = try await RelayTestPeer.connect(try url(client))
        try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("a-\(code)")))
        _ = try await alice.next()
        try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("b-\(code)")))
        _ = try await bob.next()
        #expect(try await bob.next() == .message(.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: false)))
        #expect(try await alice.next() == .message(.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true)))
        return (alice, bob, room)
    }

    /// Two peers in relay mode.
    static func relayedPair(_ client: some TestClientProtocol, code: String = "123456") async throws -> (RelayTestPeer, RelayTestPeer, RoomID) {
        let (alice, bob, room) = try await joinedPair(client, code: code)
        try await alice.send(.relayStart)
        #expect(try await alice.nothing(seconds: 0.1) == nil)
        try await bob.send(.relayStart)
        #expect(try await bob.next() == .message(.relayReady(roomID: room)))
        #expect(try await alice.next() == .message(.relayReady(roomID: room)))
        return (alice, bob, room)
    }

    @Test("relay_start from both: relay_ready, binary frames both ways byte for byte, text still works, counters")
    func forwarding() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let (alice, bob, _) = try await Self.relayedPair(client)
            let big = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await alice.sendBinary([1, 2, 3])
            try await alice.sendBinary(big)
            try await bob.sendBinary([0x7B, 0x7D])   // "{}": never parsed as JSON in relay mode
            #expect(try await bob.next() == .binary([1, 2, 3]))
            #expect(try await bob.next() == .binary(big))
            #expect(try await alice.next() == .binary([0x7B, 0x7D]))
            try await alice.send(.ping)
            #expect(try await alice.next() == .message(.pong))
            try await alice.send(.relayStart)   // repeated: no second relay_ready
            #expect(try await alice.nothing() == nil)
            #expect(try await bob.nothing(seconds: 0.05) == nil)
            let statistics = server.relayStatistics
            #expect(statistics.framesRelayed == 3)
            #expect(statistics.bytesRelayed == 3 + 65_536 + 2)
            #expect(statistics.relayActivations == 2)
            await alice.close()
            await bob.close()
        }
    }

    @Test("a third connection never sees relay frames; binary before relay mode is JSON (Inviso) or refused")
    func isolation() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let (alice, bob, _) = try await Self.relayedPair(client, code: "111111")
            let (carol, dave, _) = try await Self.relayedPair(client, code: "222222")
            let (eve, _) = try await RelayTestPeer.connect(try Self.url(client))
            try await alice.sendBinary([9, 9, 9])
            try await carol.sendBinary([7])
            #expect(try await bob.next() == .binary([9, 9, 9]))
            #expect(try await dave.next() == .binary([7]))
            #expect(try await eve.nothing() == nil)
            #expect(try await carol.nothing(seconds: 0.05) == nil)
            #expect(try await dave.nothing(seconds: 0.05) == nil)
            // A connection that never asked for the relay: binary messages are JSON, as in Inviso.
            try await eve.sendBinary(Array(#"{"type":"ping"}"#.utf8))
            #expect(try await eve.next() == .message(.pong))
            try await eve.sendBinary([1, 2, 3])
            #expect(try await eve.next() == .message(.error(SignalingText.invalidJSON)))
            try await eve.send(.relayStart)
            #expect(try await eve.next() == .message(.error(SignalingText.notInRoom)))
            #expect(server.relayStatistics.framesRelayed == 2)
        }
    }

    @Test("relay_start alone: frames refused until the peer asks; no peer: refused")
    func notYetActive() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom()))
            let (alone, _) = try await RelayTestPeer.connect(try Self.url(client))
            try await alone.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            _ = try await alone.next()
            try await alone.send(.relayStart)
            #expect(try await alone.next() == .message(.error(SignalingText.roomNotReady)))
            await alone.close()

            let (alice, bob, _) = try await Self.joinedPair(client, code: "654321")
            try await alice.send(.relayStart)
            try await alice.sendBinary([1])
            #expect(try await alice.next() == .message(.error(SignalingText.relayNotReady)))
            #expect(try await bob.nothing() == nil)
            #expect(server.relayStatistics.framesRefused == 1)
        }
    }

    @Test("peer disconnect ends the relay with peer_disconnected; later frames are refused")
    func peerDisconnect() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let (alice, bob, _) = try await Self.relayedPair(client)
            await bob.close()
            #expect(try await alice.next() == .message(.peerDisconnected(message: SignalingText.peerDisconnected)))
            try await alice.sendBinary([5])
            #expect(try await alice.next() == .message(.error(SignalingText.relayNotReady)))
            #expect(server.relayStatistics.framesRelayed == 0)
        }
    }

    @Test("a frame above the relay frame limit closes the sender with 1009")
    func frameLimit() async throws {
        var limits = TestServer.limits()
        limits.relay.maximumFrameBytes = 1_024
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (alice, bob, _) = try await Self.relayedPair(client)
            try await alice.sendBinary([UInt8](repeating: 1, count: 1_024))
            #expect(try await bob.next() == .binary([UInt8](repeating: 1, count: 1_024)))
            try await alice.sendBinary([UInt8](repeating: 2, count: 1_025))
            #expect(try await alice.closeCode() == 1009)
            #expect(try await bob.next() == .message(.peerDisconnected(message: SignalingText.peerDisconnected)))
            #expect(server.relayStatistics.framesRefused == 1)
        }
    }

    @Test("byte and frame rates: frames over the budget wait for the bucket (server clock), none is dropped")
    func rateLimits() async throws {
        var limits = TestServer.limits()
        limits.relay.bytesPerConnection = RateLimitRule(burst: 100, perSecond: 100)
        limits.relay.framesPerConnection = RateLimitRule(burst: 3, perSecond: 1)
        let (server, _, clock) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (alice, bob, _) = try await Self.relayedPair(client)
            // Bytes: 80 pass, the next 80 wait for 0.6 s of refill.
            try await alice.sendBinary([UInt8](repeating: 1, count: 80))
            try await alice.sendBinary([UInt8](repeating: 2, count: 80))
            #expect(try await bob.next() == .binary([UInt8](repeating: 1, count: 80)))
            #expect(try await bob.nothing() == nil)
            clock.advance(seconds: 1)
            #expect(try await bob.next() == .binary([UInt8](repeating: 2, count: 80)))
            // Frames: two tokens are left of the burst of 3, then one a second.
            try await alice.sendBinary([3])
            try await alice.sendBinary([4])
            try await alice.sendBinary([5])
            #expect(try await bob.next() == .binary([3]))
            #expect(try await bob.next() == .binary([4]))
            #expect(try await bob.nothing() == nil)
            clock.advance(seconds: 1)
            #expect(try await bob.next() == .binary([5]))
            #expect(server.relayStatistics.framesDelayed == 2)
            #expect(server.relayStatistics.framesRelayed == 5)
        }
    }
}
