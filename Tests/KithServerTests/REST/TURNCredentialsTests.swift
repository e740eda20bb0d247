import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("TURN credentials: coturn's shared-secret scheme, for paired devices only")
struct TURNCredentialsTests {
    static let secret = Array("a shared secret of 32 bytes!!!!!".utf8)

    static func server(turn: TURNConfiguration?) throws -> (RendezvousServer, ManualServerClock) {
        let clock = ManualServerClock()
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "test-node", turn: turn)
        return (RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil), clock: clock), clock)
    }

    @Test("a paired device gets expiry:opaque id and base64(HMAC-SHA1(secret, username)); others get 404")
    func credentials() async throws {
        let turn = try TURNConfiguration(secret: Self.secret, uris: ["turn:127.0.0.1:3478?transport=udp", "stun:127.0.0.1:3478"], ttlSeconds: 600)
        let (server, clock) = try Self.server(turn: turn)
        try await server.makeApplication().test(.router) { client in
            _ = try await client.create("123456", "dev-a")
            let room = try #require(try await client.accept("123456", "dev-b").json["roomid"])
            let answer = try await client.call(.get, "/api/turn-credentials?roomid=\(room)&deviceId=dev-b")
            #expect(answer.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            let username = try #require(object["username"] as? String)
            #expect(username == "\(clock.nowMilliseconds() / 1000 + 600):\(turn.opaqueID(room: room, device: "dev-b"))")
            // Recomputed here the way coturn checks it.
            let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Array(username.utf8), using: SymmetricKey(data: Self.secret))
            #expect(object["password"] as? String == Data(mac).base64EncodedString())
            #expect(object["ttl"] as? Int == 600)
            #expect((object["uris"] as? [String])?.count == 2)
            // Not a member of the room, an unknown room, missing parameters.
            let stranger = try await client.call(.get, "/api/turn-credentials?roomid=\(room)&deviceId=dev-x")
            let unknown = try await client.call(.get, "/api/turn-credentials?roomid=nosuchroom&deviceId=dev-b")
            let missing = try await client.call(.get, "/api/turn-credentials?deviceId=dev-b")
            #expect(stranger.status == 404 && unknown.status == 404 && missing.status == 400)
        }
    }

    @Test("a server without a TURN secret answers 404")
    func notConfigured() async throws {
        let (server, _) = try Self.server(turn: nil)
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.call(.get, "/api/turn-credentials?roomid=r&deviceId=d")
            #expect(answer.status == 404)
        }
    }

    @Test("configurations that would hand out useless or unsafe credentials are refused")
    func configuration() {
        #expect(throws: TURNConfiguration.Problem.secretTooShort) { try TURNConfiguration(secret: [1, 2, 3], uris: ["turn:h"]) }
        #expect(throws: TURNConfiguration.Problem.invalidURI("http://h")) { try TURNConfiguration(secret: Self.secret, uris: ["http://h"]) }
        #expect(throws: TURNConfiguration.Problem.invalidTTL(0)) { try TURNConfiguration(secret: Self.secret, uris: ["turn:h"], ttlSeconds: 0) }
    }
}
