import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

/// A party that holds only a leaked room id (from a TURN server's log, say) gains nothing.
@Suite("Room ids are bearer secrets that leak: they grant no device id and no member's place")
struct RoomSecretTests {
    @Test("GET /api/rooms names the devices only to a caller giving one of them; the room id alone says only that it lives")
    func deviceIDsOnlyToMembers() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let room = try await client.pairedRoom("123456", client1: "dev-a", client2: "dev-b")
            let anonymous = try await client.call(.get, "/api/rooms?roomid=\(room)")
            #expect(anonymous.status == 200)
            #expect(anonymous.text == #"{"roomid":"\#(room)"}"#)
            let wrong = try await client.call(.get, "/api/rooms?roomid=\(room)&deviceId=dev-x")
            #expect(wrong.text == #"{"roomid":"\#(room)"}"#)
            for member in ["dev-a", "dev-b"] {
                let answer = try await client.call(.get, "/api/rooms?roomid=\(room)&deviceId=\(member)")
                #expect(answer.text == #"{"client1":"dev-a","client2":"dev-b","roomid":"\#(room)"}"#)
            }
        }
    }

    @Test("a TURN username names neither the room nor the device, differs per member, and still verifies as coturn checks it")
    func turnUsernameGrantsNothing() async throws {
        let secret = Array("a shared secret of 32 bytes!!!!!".utf8)
        let turn = try TURNConfiguration(secret: secret, uris: ["turn:127.0.0.1:3478"], ttlSeconds: 600)
        let clock = ManualServerClock()
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "test-node", turn: turn)
        let server = RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil), clock: clock)
        try await server.makeApplication().test(.router) { client in
            let room = try await client.pairedRoom("123456", client1: "dev-a", client2: "dev-b")
            var usernames: [String] = []
            for member in ["dev-a", "dev-b"] {
                let answer = try await client.call(.get, "/api/turn-credentials?roomid=\(room)&deviceId=\(member)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
                let username = try #require(object["username"] as? String)
                #expect(!username.contains(room))
                #expect(!username.contains(member))
                #expect(username == "\(clock.nowMilliseconds() / 1000 + 600):\(turn.opaqueID(room: room, device: member))")
                let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Array(username.utf8), using: SymmetricKey(data: secret))
                #expect(object["password"] as? String == Data(mac).base64EncodedString())
                usernames.append(username)
            }
            #expect(usernames[0] != usernames[1])
        }
    }

    @Test("join_room: only a member's device id rejoins or replaces; a joiner without one cannot take a member's free place")
    func rejoinNeedsMemberDevice() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom("123456", client1: "dev-a", client2: "dev-b")))
            let (alice, bob) = try await TestPeer.joinedPair(room, url: try SignalingFlowTests.url(client))

            // Eve holds the room id only: a made-up device id replaces nobody.
            let (eve, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            try await eve.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-x")))
            #expect(try await eve.next() == .roomFull(roomID: room, error: SignalingText.roomFull))
            // Bob steps away: his free place is not Eve's, with or without a device id.
            try await bob.send(.leaveRoom)
            _ = try await bob.next()
            _ = try await alice.next()
            try await eve.send(.joinRoom(roomID: room, deviceID: nil))
            #expect(try await eve.next() == .error(SignalingText.roomNotFound))
            try await eve.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-x")))
            #expect(try await eve.next() == .error(SignalingText.roomNotFound))
            #expect(try await alice.nothing() == nil)
            // Bob, with his device id, gets his place and role back.
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            #expect(try await bob.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true))
            for peer in [alice, bob, eve] { await peer.close() }
        }
    }
}
