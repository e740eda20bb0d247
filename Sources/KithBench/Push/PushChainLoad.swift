import Foundation
import KithCanonical
import KithPush

/// The whole knock chain of `kith serve`, end to end: a knock at the gateway (`POST /api/v1/messages/`)
/// → the dispatcher → the Web Push provider (RFC 8291 encryption, VAPID, an HTTP POST) → the push
/// service (`/push/<capability>`) → a WebSocket subscriber that decrypts the knock, reads the token
/// echo and acknowledges. Each subscriber has its own account, Web Push device and whitelist token;
/// the knock's `data` carries a sequence number so the latency from the knock to the decryption is
/// measured per knock.
enum PushChainLoad {
    static func run(http: PushHTTP, port: Int, knocks: Int, subscribers: Int, workers: Int) async throws -> PushServiceLoad.Outcome {
        let made = try await PushServiceLoad.subscriptions(http: http, count: subscribers)
        let keys = (0..<subscribers).map { _ in WebPushReceiverKeys.generate() }
        var tokens: [String] = []
        for index in 0..<subscribers {
            let account = try await http.json(.POST, "/api/v1/accounts/", ["username": .string("chain-\(index)"), "password": "bench-password"])
            guard let auth = account.object?["token"]?.stringValue else { throw BenchFailure("chain account: \(account.status)") }
            let subscription: JSONObject = [
                "endpoint": .string("http://127.0.0.1:\(port)\(made[index].path)"),
                "keys": .object(["p256dh": .string(keys[index].subscriberKeys.p256dhBase64URL), "auth": .string(keys[index].subscriberKeys.authBase64URL)]),
            ]
            let device = try await http.json(.POST, "/api/v1/device/webpush/", subscription, token: auth)
            guard let deviceID = device.object?["id"]?.stringValue else { throw BenchFailure("chain device: \(device.status)") }
            let token = try await http.json(.POST, "/api/v1/tokens/", ["webpush_device": .string(deviceID)], token: auth)
            guard let value = token.object?["token"]?.stringValue else { throw BenchFailure("chain token: \(token.status)") }
            tokens.append(value)
        }
        let whitelist = tokens
        return try await PushServiceLoad.measure(made: made, port: port, total: knocks, workers: workers, open: { index, body in
            guard let plaintext = try? WebPushDecryption.decrypt(body, with: keys[index]),
                  let message = (try? CanonicalJSON.parse(plaintext, limits: PushLoadState.frameLimits))?.objectValue?["message"]?.objectValue,
                  message["token"]?.stringValue == whitelist[index] else { return nil }
            return message["data"]?.stringValue.flatMap { Int($0) }
        }, send: { sequence in
            let body = CanonicalJSON.serialize(["token": .string(whitelist[sequence % whitelist.count]), "data": .string(String(sequence)), "priority": "high"] as JSONObject)
            let answer = try await http.send(.POST, "/api/v1/messages/", body: body, headers: [("Content-Type", "application/json")])
            guard answer.status == 202 else { throw BenchFailure("chain knock answered \(answer.status)") }
        })
    }
}
