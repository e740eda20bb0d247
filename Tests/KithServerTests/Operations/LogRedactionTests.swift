import Hummingbird
import HummingbirdTesting
import KithPushDelivery
import KithRendezvous
import KithServer
import KithTestSupport
import Testing

@Suite("Logs name no room, code, device, SDP or key")
struct LogRedactionTests {
    @Test("a full pairing and signaling session logged at trace level leaks none of its secrets")
    func noSecretsInLogs() async throws {
        let logs = CapturedLogs()
        let store = try SQLiteRendezvousStore.open(path: nil)
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "test-node")
        let server = RendezvousServer(configuration: configuration, store: store, clock: ManualServerClock(), logger: logs.logger)
        let code = "secretcode77", alice = "device-alice-0a1b", bob = "device-bob-2c3d"
        let sdp = "v=0 sdp-marker-9f8e", key = "S2V5TWFya2VyNzc3Nw=="
        try await server.makeApplication().test(.live) { client in
            let roomText = try await client.pairedRoom(code, client1: alice, client2: bob)
            let room = try #require(RoomID(roomText))
            _ = try await client.check(code, alice)
            _ = try await client.call(.get, "/api/rooms?roomid=\(roomText)")
            _ = try await client.call(.get, "/api/rooms/\(roomText)")
            _ = try await client.accept(code, "device-late-5e6f")
            let url = try SignalingFlowTests.url(client)
            let (a, _) = try await TestPeer.connect(url)
            let (b, _) = try await TestPeer.connect(url)
            try await a.send(.joinRoom(roomID: room, deviceID: DeviceID(alice)))
            _ = try await a.next()
            try await b.send(.joinRoom(roomID: room, deviceID: DeviceID(bob)))
            _ = try await b.next()
            try await a.send(.signal(.keyExchange(publicKey: key, sessionID: roomText, timestamp: nil)))
            try await a.send(.signal(.offer(sdp: sdp)))
            try await a.sendText(#"{"type":"bogus-\#(code)"}"#)
            await a.close()
            await b.close()
            _ = try await client.call(.delete, "/api/rooms", #"{"roomid":"\#(roomText)"}"#)
            _ = try await client.call(.post, "/api/user/purge", #"{"deviceIds":["\#(alice)","\#(bob)"]}"#)
            let lines = logs.all
            #expect(!lines.isEmpty)
            for secret in [code, alice, bob, roomText, sdp, key, "device-late-5e6f"] {
                #expect(!lines.contains { $0.contains(secret) }, "a log line contains \(secret)")
            }
        }
    }

    @Test("presence pushes logged at trace level name no push token or room, even when the push service's reason quotes it")
    func noTokensInLogs() async throws {
        let logs = CapturedLogs()
        let token = String(repeating: "c0ffee", count: 10) + "abcd", fcmToken = "fcm-marker:APA91b_token"
        let apns = RecordingProvider(kind: .apns, script: [
            .retryable(reason: "APNs unreachable: https://127.0.0.1/3/device/\(token)", retryAfterSeconds: nil),
            .rejected(reason: "APNs 400 for \(token)"),
            .targetGone(reason: "APNs 410 \(token)"),
        ])
        let configuration = RendezvousServerConfiguration(
            host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "test-node", push: PushConfiguration(providers: [apns]))
        let clock = ManualServerClock()
        let server = RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil), clock: clock, logger: logs.logger)
        try await server.makeApplication().test(.live) { client in
            _ = try await client.call(.post, "/api/rooms", #"{"joinid":"778001","expiresInSeconds":60,"client1":"dev-a","client1_token":"\#(token)","platform":"ios"}"#)
            let roomText = try #require(try await client.call(
                .post, "/api/rooms/accept", #"{"joinid":"778001","client2":"dev-b","client2_token":"\#(fcmToken)","platform":"android"}"#).json["roomid"])
            let room = try #require(RoomID(roomText))
            let (bob, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            _ = try await bob.next()
            // The push on join, then two pings: one push each, 31 s apart.
            #expect(await eventually { apns.notifications.count == 1 })
            for expected in 2...3 {
                clock.advance(seconds: 31)
                try await bob.send(.pingPeer)
                #expect(try await bob.next() == .pingSent)
                #expect(await eventually { apns.notifications.count == expected })
            }
            await bob.close()
            let lines = logs.all
            for secret in [token, fcmToken, roomText] {
                #expect(!lines.contains { $0.contains(secret) }, "a log line contains \(secret)")
            }
        }
    }
}
