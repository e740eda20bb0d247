import Foundation
import HummingbirdWSClient
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
        let state = PushLoadState()
        let latencies = LatencySamples()
        let logger = PushLoadState.quietLogger
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 16, autoPing: .disabled)
        let limits = JSONLimits(maxBytes: 1 << 16, maxDepth: 3, maxStringBytes: 1 << 16, maxContainerElements: 16, maxTotalValues: 32)
        var listeners: [Task<Void, Never>] = []
        for (index, subscription) in made.enumerated() {
            let receiver = keys[index]
            let expected = whitelist[index]
            listeners.append(Task {
                do {
                    _ = try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/push/subscriptions/\(subscription.secret)/ws", configuration: configuration, logger: logger
                    ) { inbound, outbound, _ in
                        state.ready.wrappingAdd(1, ordering: .relaxed)
                        for try await frame in inbound.messages(maxSize: 1 << 16) {
                            guard case .text(let text) = frame,
                                  let object = try? CanonicalJSON.parse(Array(text.utf8), limits: limits).objectValue,
                                  let id = object["id"]?.stringValue, let body = object["body"]?.stringValue,
                                  let plaintext = try? WebPushDecryption.decrypt(try Base64URL.decode(body), with: receiver),
                                  let message = (try? CanonicalJSON.parse(plaintext, limits: limits))?.objectValue?["message"]?.objectValue,
                                  message["token"]?.stringValue == expected,
                                  let sequence = message["data"]?.stringValue.flatMap({ Int($0) }) else { continue }
                            let now = ContinuousClock.now
                            if let began = state.sent.withLock({ $0.removeValue(forKey: sequence) }) { latencies.record(milliseconds: (now - began).milliseconds) }
                            try await outbound.write(.text(#"{"type":"ack","id":"\#(id)"}"#))
                            if state.received.wrappingAdd(1, ordering: .relaxed).newValue >= knocks { return }
                        }
                    }
                } catch {
                    state.failed.wrappingAdd(1, ordering: .relaxed)
                }
            })
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while state.ready.load(ordering: .relaxed) < subscribers {
            guard state.failed.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline else { throw BenchFailure("chain subscribers did not connect") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while true {
                        let sequence = state.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard sequence < knocks else { return }
                        let body = CanonicalJSON.serialize(["token": .string(whitelist[sequence % whitelist.count]), "data": .string(String(sequence)), "priority": "high"] as JSONObject)
                        state.sent.withLock { $0[sequence] = ContinuousClock.now }
                        let answer = try await http.send(.POST, "/api/v1/messages/", body: body, headers: [("Content-Type", "application/json")])
                        guard answer.status == 202 else { throw BenchFailure("chain knock answered \(answer.status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let end = ContinuousClock.now + .seconds(60)
        while state.received.load(ordering: .relaxed) < knocks {
            guard ContinuousClock.now < end else { throw BenchFailure("only \(state.received.load(ordering: .relaxed)) of \(knocks) knocks arrived") }
            try await Task.sleep(for: .milliseconds(2))
        }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        for listener in listeners { listener.cancel() }
        return PushServiceLoad.Outcome(seconds: seconds, latencies: latencies)
    }
}
