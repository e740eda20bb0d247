import Hummingbird
import HummingbirdTesting
import KithPushDelivery
import KithRendezvous
@testable import KithServer
import KithTestSupport
import Testing

/// Inviso's presence pushes (its `ping-merged` server): `ping_peer` → `ping_sent`, a push to the member that is not
/// connected through the provider of its platform, at most one per side per 30 s, invalid tokens forgotten.
@Suite("Signaling: ping_peer and presence pushes")
struct PresencePushTests {
    static let iosToken = String(repeating: "0a1b2c3d", count: 8)
    static let androidToken = "dGVzdA:APA91bH_fcm-token"

    static func server(providers: [any PushProvider]) throws -> (RendezvousServer, ManualServerClock) {
        let clock = ManualServerClock()
        let configuration = RendezvousServerConfiguration(
            host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "presence-node", push: PushConfiguration(providers: providers))
        return (RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil), clock: clock), clock)
    }

    /// Creates (as the iOS app does, with a token) and accepts a pairing; answers the room.
    static func room(_ client: some TestClientProtocol, code: String, token1: String?, platform1: String, token2: String?, platform2: String) async throws -> RoomID {
        let extra1 = token1.map { #","client1_token":"\#($0)","platform":"\#(platform1)""# } ?? ""
        let created = try await client.call(.post, "/api/rooms", #"{"joinid":"\#(code)","expiresInSeconds":300,"client1":"dev-a"\#(extra1)}"#)
        #expect(created.status == 201)
        let extra2 = token2.map { #","client2_token":"\#($0)","platform":"\#(platform2)""# } ?? ""
        let accepted = try await client.call(.post, "/api/rooms/accept", #"{"joinid":"\#(code)","client2":"dev-b"\#(extra2)}"#)
        let text = try #require(accepted.json["roomid"])
        return try #require(RoomID(text))
    }

    @Test("alone in the room: join and ping_peer push to the peer's phone with the room id, once per 30 s; a connected peer gets none")
    func pingPeer() async throws {
        let apns = RecordingProvider(kind: .apns), fcm = RecordingProvider(kind: .fcm)
        let (server, clock) = try Self.server(providers: [apns, fcm])
        let presence = server.hub.presence
        try await server.makeApplication().test(.live) { client in
            let room = try await Self.room(client, code: "777001", token1: Self.iosToken, platform1: "ios", token2: Self.androidToken, platform2: "android")
            let url = try SignalingFlowTests.url(client)
            let (alice, _) = try await TestPeer.connect(url)
            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            #expect(try await alice.next() == .roomJoined(roomID: room, userCount: 1, isInitiator: true, ready: false))
            // Alone after join_room: Bob's Android phone is told (Inviso pushes on a lone join).
            #expect(await eventually { fcm.notifications.count == 1 })
            let push = try #require(fcm.notifications.first)
            #expect(push.target == .fcm(registrationToken: Self.androidToken))
            #expect(push.presence == PresenceAlert(roomID: room.text))
            #expect(push.priority == .high)

            // ping_peer within 30 s: ping_sent, no second push.
            try await alice.send(.pingPeer)
            #expect(try await alice.next() == .pingSent)
            #expect(await eventually { presence.count(of: .rateLimited) == 1 })
            #expect(fcm.notifications.count == 1)
            clock.advance(seconds: 31)
            try await alice.send(.pingPeer)
            #expect(try await alice.next() == .pingSent)
            #expect(await eventually { fcm.notifications.count == 2 })

            // Bob connects: pings answer ping_sent and push nothing.
            let (bob, _) = try await TestPeer.connect(url)
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            _ = try await bob.next()
            _ = try await bob.next()
            _ = try await alice.next()
            clock.advance(seconds: 31)
            try await alice.send(.pingPeer)
            #expect(try await alice.next() == .pingSent)

            // Alice leaves: Bob's ping goes to her iPhone through APNs.
            try await alice.send(.leaveRoom)
            _ = try await alice.next()
            _ = try await bob.next()
            try await bob.send(.pingPeer)
            #expect(try await bob.next() == .pingSent)
            #expect(await eventually { apns.notifications.count == 1 })
            #expect(apns.notifications.first?.target == .apns(deviceToken: Self.iosToken))
            #expect(apns.notifications.first?.presence?.roomID == room.text)
            #expect(fcm.notifications.count == 2)
            for peer in [alice, bob] { await peer.close() }
        }
    }

    @Test("a token APNs calls gone (410) is forgotten: later pings push nothing")
    func invalidTokenForgotten() async throws {
        let apns = RecordingProvider(kind: .apns, script: [.targetGone(reason: "APNs 410 Unregistered")])
        let (server, clock) = try Self.server(providers: [apns])
        let presence = server.hub.presence
        try await server.makeApplication().test(.live) { client in
            let room = try await Self.room(client, code: "777002", token1: Self.iosToken, platform1: "ios", token2: nil, platform2: "ios")
            let (bob, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            _ = try await bob.next()
            #expect(await eventually { presence.count(of: .tokenForgotten) == 1 })
            clock.advance(seconds: 31)
            try await bob.send(.pingPeer)
            #expect(try await bob.next() == .pingSent)
            #expect(await eventually { presence.count(of: .noTarget) == 1 })
            #expect(apns.notifications.count == 1)
            await bob.close()
        }
    }

    @Test("no provider for the peer's platform: ping_sent, no push; not in a room: Inviso's error")
    func noProvider() async throws {
        let (server, _) = try Self.server(providers: [])
        let presence = server.hub.presence
        try await server.makeApplication().test(.live) { client in
            let room = try await Self.room(client, code: "777003", token1: Self.iosToken, platform1: "ios", token2: nil, platform2: "ios")
            let (bob, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            try await bob.send(.pingPeer)
            #expect(try await bob.next() == .error("Not in a room"))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            _ = try await bob.next()
            #expect(await eventually { presence.count(of: .noProvider) == 1 })
            try await bob.send(.pingPeer)
            #expect(try await bob.next() == .pingSent)
            #expect(await eventually { presence.count(of: .noProvider) == 2 })
            await bob.close()
        }
    }

    @Test("an invalid token in a room request is refused by name; no token behaves as before")
    func restBounds() async throws {
        let (server, _) = try Self.server(providers: [])
        try await server.makeApplication().test(.router) { client in
            let bad = try await client.call(.post, "/api/rooms", #"{"joinid":"777004","expiresInSeconds":300,"client1":"dev-a","client1_token":"a b","platform":"ios"}"#)
            #expect(bad.status == 400)
            #expect(bad.json["error"] == "invalid_client1_token")
            #expect(try await client.create("777004", "dev-a").status == 201)
            let badAccept = try await client.call(.post, "/api/rooms/accept", #"{"joinid":"777004","client2":"dev-b","client2_token":"x","platform":["ios"]}"#)
            #expect(badAccept.json["error"] == "invalid_platform")
            #expect(try await client.accept("777004", "dev-b").status == 200)
        }
    }
}
