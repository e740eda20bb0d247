import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import KithCanonical
import KithPush
import Logging
import NIOHTTP1
import Synchronization

/// `kith-bench push`: the push gateway and the self-hosted push service of `kith serve`, the
/// server in a child process (``PushServerChild``), the load generated here.
///
/// - `push.gateway_knocks_per_s`: knocks (`POST /api/v1/messages/`) answered 202 by concurrent
///   workers, each handed to a counting provider.
/// - `push.service_delivery_per_s`, `push.service_p50_ms`, `push.service_p99_ms`: RFC 8291 bodies
///   (encrypted here with `WebPushEncryption`) posted to `/push/<capability>` and received,
///   decrypted and acknowledged by WebSocket subscribers; latency from the POST to the decryption.
/// - `push.end_to_end_knocks_per_s`, `push.end_to_end_p50_ms`, `push.end_to_end_p99_ms`: the whole
///   chain (``PushChainLoad``): knock at the gateway → Web Push provider (RFC 8291, VAPID, HTTP) →
///   push service → WebSocket subscriber that decrypts and maps the token; latency from the knock to the decryption.
/// - `push.subscriber_idle_bytes`: the server's resident-memory growth (VmRSS) per idle subscriber WebSocket.
///
/// `KITH_BENCH_SERVER_SCALE=quick` runs a smaller load.
enum PushSuite: BenchSuite {
    static let name = "push"

    struct Scale {
        var knocks: Int
        var tokens: Int
        var messages: Int
        var subscribers: Int
        var idle: Int
        var workers: Int
    }

    static func run(report: (BenchFigure) -> Void) async throws {
        let quick = ProcessInfo.processInfo.environment["KITH_BENCH_SERVER_SCALE"] == "quick"
        let scale = quick
            ? Scale(knocks: 4_000, tokens: 100, messages: 2_000, subscribers: 20, idle: 500, workers: 32)
            : Scale(knocks: 20_000, tokens: 400, messages: 10_000, subscribers: 100, idle: 2_000, workers: 32)
        _ = FileLimit.raiseToHard()
        let server = try ServerChild.start(command: PushServerChild.command)
        let http = PushHTTP(base: "http://127.0.0.1:\(server.port)", client: HTTPClient(eventLoopGroupProvider: .singleton))
        do {
            let knocks = try await PushGatewayLoad.run(http: http, knocks: scale.knocks, tokens: scale.tokens, workers: scale.workers)
            report(BenchFigure(name: "push.gateway_knocks_per_s", value: Double(scale.knocks) / knocks, unit: "knocks/s"))

            let delivery = try await PushServiceLoad.run(
                http: http, port: server.port, messages: scale.messages, subscribers: scale.subscribers, workers: scale.workers)
            report(BenchFigure(name: "push.service_delivery_per_s", value: Double(scale.messages) / delivery.seconds, unit: "msgs/s"))
            report(BenchFigure(name: "push.service_p50_ms", value: delivery.latencies.percentile(0.5), unit: "ms"))
            report(BenchFigure(name: "push.service_p99_ms", value: delivery.latencies.percentile(0.99), unit: "ms"))

            let chain = try await PushChainLoad.run(
                http: http, port: server.port, knocks: scale.messages, subscribers: scale.subscribers, workers: scale.workers)
            report(BenchFigure(name: "push.end_to_end_knocks_per_s", value: Double(scale.messages) / chain.seconds, unit: "knocks/s"))
            report(BenchFigure(name: "push.end_to_end_p50_ms", value: chain.latencies.percentile(0.5), unit: "ms"))
            report(BenchFigure(name: "push.end_to_end_p99_ms", value: chain.latencies.percentile(0.99), unit: "ms"))

            let secrets = try await PushServiceLoad.subscriptions(http: http, count: scale.idle + 10)
            let warm = try await PushServiceLoad.idle(Array(secrets.prefix(10)), port: server.port)
            try await Task.sleep(for: .seconds(1))
            guard let before = server.residentKilobytes else { throw BenchFailure("cannot read the server's VmRSS") }
            let held = try await PushServiceLoad.idle(Array(secrets.dropFirst(10)), port: server.port)
            try await Task.sleep(for: .seconds(2))
            guard let after = server.residentKilobytes else { throw BenchFailure("cannot read the server's VmRSS") }
            report(BenchFigure(name: "push.subscriber_idle_count", value: Double(held.count), unit: "connections"))
            report(BenchFigure(name: "push.subscriber_idle_bytes", value: (Double(after - before) * 1_024 / Double(held.count)).rounded(), unit: "bytes"))
            server.stop()
            for task in warm + held { await task.value }
            try? await http.client.shutdown()
        } catch {
            server.stop()
            try? await http.client.shutdown()
            throw error
        }
    }
}

/// Knocks through the gateway: one account, one device, `tokens` tokens, `knocks` knocks by `workers` workers.
enum PushGatewayLoad {
    /// Answers the elapsed seconds of the knocks.
    static func run(http: PushHTTP, knocks: Int, tokens: Int, workers: Int) async throws -> Double {
        let account = try await http.json(.POST, "/api/v1/accounts/", ["username": "bench", "password": "bench-password"])
        guard let auth = account.object?["token"]?.stringValue else { throw BenchFailure("account: \(account.status)") }
        let device = try await http.json(.POST, "/api/v1/device/apns/", ["registration_id": "0123456789abcdef"], token: auth)
        guard let deviceID = device.object?["id"]?.stringValue else { throw BenchFailure("device: \(device.status)") }
        var whitelist: [String] = []
        while whitelist.count < tokens {
            let batch = try await http.json(.POST, "/api/v1/tokens/", ["apns_device": .string(deviceID), "count": 20], token: auth)
            for item in batch.object?["results"]?.arrayValue ?? [] {
                if let token = item.objectValue?["token"]?.stringValue { whitelist.append(token) }
            }
            guard batch.status == 201 else { throw BenchFailure("tokens: \(batch.status)") }
        }
        let bodies = whitelist.map { CanonicalJSON.serialize(["token": .string($0), "priority": "high"] as JSONObject) }
        let state = PushLoadState()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while true {
                        let index = state.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < knocks else { return }
                        let answer = try await http.send(.POST, "/api/v1/messages/", body: bodies[index % bodies.count], headers: [("Content-Type", "application/json")])
                        guard answer.status == 202 else { throw BenchFailure("knock answered \(answer.status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        return (ContinuousClock.now - start).milliseconds / 1_000
    }
}

/// Push messages through the push service to WebSocket subscribers that decrypt them.
enum PushServiceLoad {
    struct Outcome {
        var seconds: Double
        var latencies: LatencySamples
    }

    /// Creates `count` subscriptions; answers (endpoint path, secret) pairs.
    static func subscriptions(http: PushHTTP, count: Int) async throws -> [(path: String, secret: String)] {
        var made: [(String, String)] = []
        for _ in 0..<count {
            let answer = try await http.send(.POST, "/push/subscriptions")
            guard let object = answer.object, let endpoint = object["endpoint"]?.stringValue, let secret = object["subscription"]?.stringValue,
                  let range = endpoint.range(of: "/push/") else { throw BenchFailure("subscription: \(answer.status)") }
            made.append((String(endpoint[range.lowerBound...]), secret))
        }
        return made
    }

    static func run(http: PushHTTP, port: Int, messages: Int, subscribers: Int, workers: Int) async throws -> Outcome {
        let made = try await subscriptions(http: http, count: subscribers)
        let keys = (0..<subscribers).map { _ in WebPushReceiverKeys.generate() }
        return try await measure(made: made, port: port, total: messages, workers: workers, open: { index, body in
            guard let plaintext = try? WebPushDecryption.decrypt(body, with: keys[index]) else { return nil }
            return Int(String(decoding: plaintext, as: UTF8.self))
        }, send: { sequence in
            let target = sequence % made.count
            let body = try WebPushEncryption.encrypt(Array(String(sequence).utf8), for: keys[target].subscriberKeys)
            let answer = try await http.send(.POST, made[target].path, body: body, headers: [("TTL", "60"), ("Content-Encoding", "aes128gcm")])
            guard answer.status == 201 else { throw BenchFailure("push answered \(answer.status)") }
        })
    }

    /// One WebSocket subscriber per subscription; `workers` tasks call `send` for sequences
    /// `0..<total`; each subscriber hands every message body to `open` (its index, the body), which
    /// answers the sequence it carries (nil: not counted), then acknowledges it. Answers the seconds
    /// from the first send to the last message and the send-to-open latencies.
    static func measure(
        made: [(path: String, secret: String)], port: Int, total: Int, workers: Int,
        open: @escaping @Sendable (Int, [UInt8]) -> Int?, send: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Outcome {
        let state = PushLoadState()
        let latencies = LatencySamples()
        let logger = PushLoadState.quietLogger
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 16, autoPing: .disabled)
        var listeners: [Task<Void, Never>] = []
        for (index, subscription) in made.enumerated() {
            listeners.append(Task {
                do {
                    _ = try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/push/subscriptions/\(subscription.secret)/ws", configuration: configuration, logger: logger
                    ) { inbound, outbound, _ in
                        state.ready.wrappingAdd(1, ordering: .relaxed)
                        for try await frame in inbound.messages(maxSize: 1 << 16) {
                            guard case .text(let text) = frame,
                                  let object = try? CanonicalJSON.parse(Array(text.utf8), limits: PushLoadState.frameLimits).objectValue,
                                  let id = object["id"]?.stringValue, let body = object["body"]?.stringValue,
                                  let bytes = try? Base64URL.decode(body), let sequence = open(index, bytes) else { continue }
                            let now = ContinuousClock.now
                            if let began = state.sent.withLock({ $0.removeValue(forKey: sequence) }) { latencies.record(milliseconds: (now - began).milliseconds) }
                            try await outbound.write(.text(#"{"type":"ack","id":"\#(id)"}"#))
                            if state.received.wrappingAdd(1, ordering: .relaxed).newValue >= total { return }
                        }
                    }
                } catch {
                    state.failed.wrappingAdd(1, ordering: .relaxed)
                }
            })
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while state.ready.load(ordering: .relaxed) < made.count {
            guard state.failed.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline else { throw BenchFailure("subscribers did not connect") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while true {
                        let sequence = state.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard sequence < total else { return }
                        state.sent.withLock { $0[sequence] = ContinuousClock.now }
                        try await send(sequence)
                    }
                }
            }
            try await group.waitForAll()
        }
        let end = ContinuousClock.now + .seconds(60)
        while state.received.load(ordering: .relaxed) < total {
            guard ContinuousClock.now < end else { throw BenchFailure("only \(state.received.load(ordering: .relaxed)) of \(total) messages arrived") }
            try await Task.sleep(for: .milliseconds(2))
        }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        for listener in listeners { listener.cancel() }
        return Outcome(seconds: seconds, latencies: latencies)
    }

    /// Opens idle subscriber WebSockets; answers once all are connected, with the tasks holding them.
    static func idle(_ subscriptions: [(path: String, secret: String)], port: Int) async throws -> [Task<Void, Never>] {
        let state = PushLoadState()
        let logger = PushLoadState.quietLogger
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 16, autoPing: .disabled)
        var tasks: [Task<Void, Never>] = []
        for (index, subscription) in subscriptions.enumerated() {
            tasks.append(Task {
                do {
                    _ = try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/push/subscriptions/\(subscription.secret)/ws", configuration: configuration, logger: logger
                    ) { inbound, _, _ in
                        state.ready.wrappingAdd(1, ordering: .relaxed)
                        for try await _ in inbound.messages(maxSize: 1 << 16) {}
                    }
                } catch {
                    state.failed.wrappingAdd(1, ordering: .relaxed)
                }
            })
            if index % 100 == 99 {
                while state.ready.load(ordering: .relaxed) + state.failed.load(ordering: .relaxed) < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while state.ready.load(ordering: .relaxed) < subscriptions.count {
            guard state.failed.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline else { throw BenchFailure("idle subscribers did not connect") }
            try await Task.sleep(for: .milliseconds(5))
        }
        return tasks
    }
}

/// Counters and send times shared by the load's tasks.
final class PushLoadState: Sendable {
    let next = Atomic<Int>(0)
    let ready = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let sent = Mutex<[Int: ContinuousClock.Instant]>([:])

    /// Bounds for the subscriber frames and knock bodies the load reads.
    static let frameLimits = JSONLimits(maxBytes: 1 << 16, maxDepth: 3, maxStringBytes: 1 << 16, maxContainerElements: 16, maxTotalValues: 32)

    /// A logger that stays silent.
    static var quietLogger: Logger {
        var logger = Logger(label: "kith.bench.push")
        logger.logLevel = .critical
        return logger
    }
}
