import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

/// Cross-node fan-out through PostgreSQL LISTEN/NOTIFY: two servers on one database. Runs when
/// `KITH_TEST_POSTGRES_URL` names a database (scripts/test.sh starts a throwaway cluster).
@Suite("PostgreSQL fan-out: a peer on node A pairs with, signals to and relays to a peer on node B; dead nodes are swept",
       .serialized, .enabled(if: ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"] != nil))
struct PostgresFanoutTests {
    static func node(_ name: String, clock: ManualServerClock, options: PostgresFanoutOptions = PostgresFanoutOptions()) async throws -> (RendezvousServer, PostgresSignalBus, PostgresRendezvousStore) {
        let url = try #require(ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"])
        let nodeID = "\(name)-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: nodeID)
        let bus = try await PostgresSignalBus.open(store: store, nodeID: nodeID, options: options)
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: nodeID)
        return (RendezvousServer(configuration: configuration, store: store, clock: clock, fanout: bus), bus, store)
    }

    static func url(_ client: some TestClientProtocol) throws -> String { "ws://localhost:\(try #require(client.port))/" }

    @Test("room made on A, accepted on B; room_ready, key_exchange, relay_start and relay frames (inline and spooled) cross; disconnect reaches the other node")
    func crossNode() async throws {
        let clock = ManualServerClock()
        let (serverA, busA, _) = try await Self.node("fan-a", clock: clock)
        let (serverB, busB, _) = try await Self.node("fan-b", clock: clock)
        let code = String(UInt64.random(in: 100_000_000...999_999_999))
        try await serverA.makeApplication().test(.live) { clientA in
            try await serverB.makeApplication().test(.live) { clientB in
                #expect(try await clientA.create(code, "fa-1").status == 201)
                let roomText = try await clientB.accept(code, "fb-2").json["roomid"] ?? ""
                let room = try #require(RoomID(roomText))
                let (alice, aliceID) = try await RelayTestPeer.connect(try Self.url(clientA))
                let (bob, bobID) = try await RelayTestPeer.connect(try Self.url(clientB))
                try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("fa-1")))
                #expect(try await alice.next() == .message(.roomJoined(roomID: room, userCount: 1, isInitiator: true, ready: false)))
                try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("fb-2")))
                #expect(try await bob.next() == .message(.roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true)))
                _ = try await bob.next()
                #expect(try await alice.next() == .message(.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true)))

                try await alice.send(.signal(.keyExchange(publicKey: "AAAA", sessionID: "s", timestamp: 1)))
                #expect(try await bob.next() == .message(.relayed(RelayedSignal(from: aliceID, roomID: room, payload: .keyExchange(publicKey: "AAAA", sessionID: "s", timestamp: 1)))))
                let bigSDP = "v=0 " + String(repeating: "a=candidate-line\r\n", count: 2_000)
                try await bob.send(.signal(.answer(sdp: bigSDP)))
                #expect(try await alice.next() == .message(.relayed(RelayedSignal(from: bobID, roomID: room, payload: .answer(sdp: bigSDP)))))

                try await alice.send(.relayStart)
                try await bob.send(.relayStart)
                #expect(try await alice.next() == .message(.relayReady(roomID: room)))
                #expect(try await bob.next() == .message(.relayReady(roomID: room)))
                let small = [UInt8](repeating: 7, count: 509)
                let big = (0..<60_000).map { UInt8(truncatingIfNeeded: $0) }
                try await alice.sendBinary(small)
                try await alice.sendBinary(big)
                try await alice.sendBinary([1])
                #expect(try await bob.next() == .binary(small))
                #expect(try await bob.next() == .binary(big))
                #expect(try await bob.next() == .binary([1]))
                try await bob.sendBinary([2, 3])
                #expect(try await alice.next() == .binary([2, 3]))

                await bob.close()
                #expect(try await alice.next() == .message(.peerDisconnected(message: SignalingText.peerDisconnected)))
                await alice.close()
                #expect(busA.eventsSent > 0 && busB.eventsSent > 0)
                #expect(busA.eventsReceived > 0 && busB.eventsReceived > 0)
                #expect(busA.eventsDropped == 0 && busB.eventsDropped == 0)
                #expect(serverA.relayStatistics.bytesRelayed == 509 + 60_000 + 1)
            }
        }
    }

    @Test("a node that stops heartbeating is swept: its membership is removed and the peer on a live node gets peer_disconnected")
    func deadNodeSwept() async throws {
        let clock = ManualServerClock()
        var fast = PostgresFanoutOptions()
        fast.heartbeatInterval = .milliseconds(100)
        fast.deadNodeAfterSeconds = 30
        let (serverA, busA, storeA) = try await Self.node("live", clock: clock, options: fast)
        let (serverD, _, _) = try await Self.node("doomed", clock: clock, options: fast)
        let doomedNode = serverD.configuration.nodeID
        // The doomed node runs long enough to heartbeat once, then stops without any connection.
        try await serverD.serving { _ in try await Task.sleep(for: .milliseconds(400)) }

        let joinCode = try #require(JoinCode(String(UInt64.random(in: 100_000_000...999_999_999))))
        let now = clock.nowMilliseconds()
        _ = try await storeA.createPending(joinCode: joinCode, client1: try #require(DeviceID("dd-1")), expiresAt: now + 60_000, now: now)
        guard case .accepted(let room) = try await storeA.accept(joinCode: joinCode, client2: try #require(DeviceID("dd-2")), proposedRoom: .random(), roomExpiresAt: now + 600_000, now: now)
        else { Issue.record("not accepted"); return }
        // A member whose socket lived on the doomed node (it died without leaving).
        _ = try await storeA.join(JoinRequest(room: room, member: MemberAddress(node: doomedNode, client: .random()), device: DeviceID("dd-1")), roomExpiresAt: now + 600_000, now: now)

        try await serverA.makeApplication().test(.live) { client in
            let (alice, _) = try await RelayTestPeer.connect(try Self.url(client))
            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dd-2")))
            #expect(try await alice.next() == .message(.roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true)))
            _ = try await alice.next()
            #expect(try await alice.nothing(seconds: 0.3) == nil)
            clock.advance(seconds: 31)
            #expect(try await alice.next() == .message(.peerDisconnected(message: SignalingText.peerDisconnected)))
            #expect(busA.membershipsSwept == 1)
            await alice.close()
        }
    }
}
