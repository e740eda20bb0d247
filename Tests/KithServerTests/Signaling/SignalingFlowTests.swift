import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import KithTestSupport
import Testing

@Suite("Signaling: two peers through Inviso's protocol")
struct SignalingFlowTests {
    static func url(_ client: some TestClientProtocol) throws -> String { "ws://localhost:\(try #require(client.port))/" }

    @Test("join, room_ready, offer/answer/ICE/key exchange relayed, leave and disconnect")
    func twoPeers() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let roomText = try await client.pairedRoom()
            let room = try #require(RoomID(roomText))
            let (alice, aliceID) = try await TestPeer.connect(try Self.url(client))
            let (bob, bobID) = try await TestPeer.connect(try Self.url(client))
            #expect(aliceID != bobID)

            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            #expect(try await alice.next() == .roomJoined(roomID: room, userCount: 1, isInitiator: true, ready: false))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            #expect(try await bob.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true))
            #expect(try await bob.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: false))
            #expect(try await alice.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true))

            try await alice.send(.signal(.keyExchange(publicKey: "AAAA", sessionID: roomText, timestamp: nil)))
            #expect(try await bob.next() == .relayed(RelayedSignal(from: aliceID, roomID: room, payload: .keyExchange(publicKey: "AAAA", sessionID: roomText, timestamp: nil))))
            try await bob.send(.signal(.keyExchangeComplete(sessionID: roomText, timestamp: 7)))
            #expect(try await alice.next() == .relayed(RelayedSignal(from: bobID, roomID: room, payload: .keyExchangeComplete(sessionID: roomText, timestamp: 7))))
            try await alice.send(.signal(.offer(sdp: "v=0 offer")))
            #expect(try await bob.next() == .relayed(RelayedSignal(from: aliceID, roomID: room, payload: .offer(sdp: "v=0 offer"))))
            try await bob.send(.signal(.answer(sdp: "v=0 answer")))
            #expect(try await alice.next() == .relayed(RelayedSignal(from: bobID, roomID: room, payload: .answer(sdp: "v=0 answer"))))
            let candidate = ICECandidate(candidate: "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host", sdpMLineIndex: 0, sdpMid: "0")
            try await bob.send(.signal(.iceCandidate(candidate)))
            #expect(try await alice.next() == .relayed(RelayedSignal(from: bobID, roomID: room, payload: .iceCandidate(candidate))))

            try await bob.send(.leaveRoom)
            #expect(try await bob.next() == .leftRoom(roomID: room))
            #expect(try await alice.next() == .peerLeft(message: SignalingText.peerLeft))
            try await alice.send(.signal(.offer(sdp: "late")))
            #expect(try await alice.next() == .error(SignalingText.roomNotReady))
            try await bob.send(.leaveRoom)
            #expect(try await bob.next() == .leftRoom(roomID: nil))

            // Bob comes back: he is the responder again, Alice still the initiator.
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            #expect(try await bob.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true))
            _ = try await bob.next()
            #expect(try await alice.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true))

            await bob.close()
            #expect(try await alice.next() == .peerDisconnected(message: SignalingText.peerDisconnected))
            await alice.close()
            #expect(await eventually { server.connectionCount == 0 })
        }
    }

    @Test("a third connection gets room_full; Inviso's errors for bad requests; ping answers pong")
    func refusals() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom()))
            let (alice, _) = try await TestPeer.connect(try Self.url(client))
            let (bob, _) = try await TestPeer.connect(try Self.url(client))
            let (eve, _) = try await TestPeer.connect(try Self.url(client))

            try await eve.send(.signal(.offer(sdp: "x")))
            #expect(try await eve.next() == .error("Not in a valid room for WebRTC signaling"))
            try await eve.send(.joinRoom(roomID: try #require(RoomID("not-a-room")), deviceID: nil))
            #expect(try await eve.next() == .error("Room not found"))
            try await eve.sendText(#"{"type":"join_room"}"#)
            #expect(try await eve.next() == .error("Invalid roomId"))
            try await eve.sendText("{not json")
            #expect(try await eve.next() == .error("Invalid JSON format"))
            try await eve.sendText(#"{"type":"ping_peer"}"#)
            #expect(try await eve.next() == .error("Not in a room"))
            try await eve.sendText(#"{"type":"ping_pong"}"#)
            #expect(try await eve.next() == .error("Unknown message type: ping_pong"))
            try await eve.send(.ping)
            #expect(try await eve.next() == .pong)

            try await alice.send(.joinRoom(roomID: room, deviceID: nil))
            _ = try await alice.next()
            try await alice.send(.signal(.answer(sdp: "x")))
            #expect(try await alice.next() == .error("Room must have exactly 2 users for WebRTC"))
            try await bob.send(.joinRoom(roomID: room, deviceID: nil))
            _ = try await bob.next()
            _ = try await bob.next()
            _ = try await alice.next()
            try await eve.send(.joinRoom(roomID: room, deviceID: nil))
            #expect(try await eve.next() == .roomFull(roomID: room, error: "Room is full (max 2 users)"))
            #expect(try await alice.nothing() == nil)
            for peer in [alice, bob, eve] { await peer.close() }
        }
    }

    @Test("the initiator keeps its role when it reconnects, and a stale socket of the same device gives way")
    func stableInitiator() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom()))
            let (alice, bob) = try await TestPeer.joinedPair(room, url: try Self.url(client))

            // Alice's network changes: a new socket joins while the old one is still open.
            let (alice2, _) = try await TestPeer.connect(try Self.url(client))
            try await alice2.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            #expect(try await alice.next() == .leftRoom(roomID: room))
            #expect(try await bob.next() == .peerDisconnected(message: SignalingText.peerDisconnected))
            #expect(try await alice2.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: true, ready: true))
            #expect(try await alice2.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true))
            #expect(try await bob.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: false))
            await alice.close()
            #expect(try await bob.nothing() == nil)

            // Both leave; Bob rejoins first and is still the responder; Alice is still the initiator.
            await alice2.close()
            _ = try await bob.next()
            try await bob.send(.leaveRoom)
            _ = try await bob.next()
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            #expect(try await bob.next() == .roomJoined(roomID: room, userCount: 1, isInitiator: false, ready: false))
            let (alice3, _) = try await TestPeer.connect(try Self.url(client))
            try await alice3.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            #expect(try await alice3.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: true, ready: true))
            for peer in [bob, alice3] { await peer.close() }
        }
    }

    @Test("deleting or purging a room tells its members")
    func deletionTellsMembers() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let roomText = try await client.pairedRoom()
            let room = try #require(RoomID(roomText))
            let (alice, _) = try await TestPeer.connect(try Self.url(client))
            try await alice.send(.joinRoom(roomID: room, deviceID: nil))
            _ = try await alice.next()
            #expect(try await client.call(.delete, "/api/rooms", #"{"roomid":"\#(roomText)"}"#).status == 200)
            #expect(try await alice.next() == .peerLeft(message: SignalingText.peerLeft))
            try await alice.send(.signal(.offer(sdp: "x")))
            #expect(try await alice.next() == .error(SignalingText.notInRoom))
            await alice.close()
        }
    }
}
