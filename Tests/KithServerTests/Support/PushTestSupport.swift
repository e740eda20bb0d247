import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import KithCanonical
import KithPush
import KithPushDelivery
import KithRendezvous
import KithServer
import KithTestSupport
import Logging
import NIOCore
import Synchronization

/// A provider that records every notification and answers from a script (then `fallback`).
final class RecordingProvider: PushProvider {
    let kind: PushTargetKind
    private let script: Mutex<[PushDeliveryOutcome]>
    private let fallback: PushDeliveryOutcome
    private let log = Mutex<[PushNotification]>([])

    init(kind: PushTargetKind, script: [PushDeliveryOutcome] = [], fallback: PushDeliveryOutcome = .delivered) {
        self.kind = kind
        self.script = Mutex(script)
        self.fallback = fallback
    }

    func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome {
        log.withLock { $0.append(notification) }
        return script.withLock { $0.isEmpty ? fallback : $0.removeFirst() }
    }

    var notifications: [PushNotification] { log.withLock { $0 } }
}

/// Servers with a push store on memory, a manual clock, quick password hashing and loose limits
/// unless a test tightens them.
enum PushTestServer {
    static let publicURL = "http://push.test:8443"

    static func limits() -> PushServerLimits {
        var limits = PushServerLimits()
        limits.passwordRounds = 1_000
        limits.gatewayRequestsPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.accountsPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.knocksPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.knocksPerToken = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.loginsPerUsername = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.subscriptionsPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.messagesPerCapability = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.pushRequestsPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.retryBaseDelay = .milliseconds(1)
        limits.retryMaximumDelay = .milliseconds(4)
        return limits
    }

    static func make(
        providers: [any PushProvider] = [], limits: PushServerLimits = PushTestServer.limits(),
        clock: ManualServerClock = ManualServerClock(), logger: Logger = Logger(label: "kith.serve"),
        webPushEndpointPolicy: WebPushEndpointPolicy? = nil
    ) throws -> (server: RendezvousServer, store: SQLitePushStore, clock: ManualServerClock) {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let pushStore = try SQLitePushStore.open(path: nil)
        let configuration = RendezvousServerConfiguration(
            host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "push-node",
            push: PushConfiguration(providers: providers, publicURL: publicURL, limits: limits, webPushEndpointPolicy: webPushEndpointPolicy))
        return (RendezvousServer(configuration: configuration, store: store, clock: clock, logger: logger, pushStore: pushStore), pushStore, clock)
    }
}

/// A JSON answer of the gateway, parsed for assertions.
struct PushAnswer {
    let status: Int
    let text: String
    let headers: HTTPFields

    var object: JSONObject { (try? CanonicalJSON.parse(Array(text.utf8), limits: .init(maxBytes: 1 << 20, maxDepth: 8, maxStringBytes: 1 << 20, maxContainerElements: 10_000, maxTotalValues: 100_000)).objectValue) ?? JSONObject() }
    var array: [JSONValue] { (try? CanonicalJSON.parse(Array(text.utf8), limits: .init(maxBytes: 1 << 20, maxDepth: 8, maxStringBytes: 1 << 20, maxContainerElements: 10_000, maxTotalValues: 100_000)).arrayValue) ?? [] }
    func string(_ key: String) -> String? { object[key]?.stringValue }
}

extension TestClientProtocol {
    /// Sends `body` to `uri` with `headers`, declared as `contentType` unless `headers` name one (none when nil
    /// or without a body).
    func push(
        _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, token: String? = nil, headers: HTTPFields = [:],
        contentType: String? = "application/json"
    ) async throws -> PushAnswer {
        var fields = headers
        if let token { fields[.authorization] = "Token \(token)" }
        if body != nil, fields[.contentType] == nil, let contentType { fields[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }) { response in
            PushAnswer(status: Int(response.status.code), text: String(buffer: response.body), headers: response.headers)
        }
    }

    /// Sends raw bytes to `uri`.
    func pushBytes(_ uri: String, _ body: [UInt8], headers: HTTPFields) async throws -> PushAnswer {
        try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body)) { response in
            PushAnswer(status: Int(response.status.code), text: String(buffer: response.body), headers: response.headers)
        }
    }

    /// Creates an account and answers its API token.
    func pushAccount(_ username: String = "user-\(UInt32.random(in: 0...UInt32.max))", password: String = "secret") async throws -> String {
        let answer = try await push(.post, "/api/v1/accounts/", #"{"username":"\#(username)","password":"\#(password)"}"#)
        return answer.string("token") ?? ""
    }

    /// Registers an APNs device and answers its id.
    func apnsDevice(token: String, registration: String = "abcdef0123456789") async throws -> String {
        try await push(.post, "/api/v1/device/apns/", #"{"registration_id":"\#(registration)"}"#, token: token).string("id") ?? ""
    }

    /// Creates one whitelist token for an APNs device and answers it.
    func whitelistToken(token: String, device: String) async throws -> String {
        try await push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)"}"#, token: token).string("token") ?? ""
    }

    /// Knocks with `whitelist`.
    func knock(_ whitelist: String, data: String? = nil, priority: String? = nil) async throws -> PushAnswer {
        var body: JSONObject = ["token": .string(whitelist)]
        if let data { body["data"] = .string(data) }
        if let priority { body["priority"] = .string(priority) }
        return try await push(.post, "/api/v1/messages/", RendezvousJSON.text(body))
    }
}

/// A push-service subscriber for tests: connects to the WebSocket channel, collects frames, sends acks.
final class PushTestSubscriber: Sendable {
    struct Timeout: Error {}
    private let inbox = Mutex<[JSONObject]>([])
    private let outbound = Mutex<WebSocketOutboundWriter?>(nil)
    private let done = Mutex<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    static func connect(port: Int, secret: String) async throws -> PushTestSubscriber {
        let subscriber = PushTestSubscriber()
        let running = Task {
            _ = try? await WebSocketClient.connect(url: "ws://localhost:\(port)/push/subscriptions/\(secret)/ws", logger: Logger(label: "test")) { inbound, outbound, _ in
                subscriber.outbound.withLock { $0 = outbound }
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    guard case .text(let text) = message,
                          let object = try? CanonicalJSON.parse(Array(text.utf8), limits: .init(maxBytes: 1 << 16, maxDepth: 4, maxStringBytes: 1 << 16, maxContainerElements: 64, maxTotalValues: 256)).objectValue
                    else { continue }
                    subscriber.inbox.withLock { $0.append(object) }
                }
            }
            subscriber.done.withLock { $0 = true }
        }
        subscriber.task.withLock { $0 = running }
        _ = await eventually { subscriber.outbound.withLock({ $0 != nil }) || subscriber.done.withLock({ $0 }) }
        return subscriber
    }

    var isClosed: Bool { done.withLock { $0 } }
    /// Whether the server upgraded the connection (a refusal before the upgrade never gives an outbound writer).
    var wasUpgraded: Bool { outbound.withLock { $0 != nil } }

    /// The next frame, waiting up to `seconds`.
    func next(seconds: Double = 60) async throws -> JSONObject {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if let frame = inbox.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return frame }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout()
    }

    /// Frames received, after waiting `seconds` for stragglers.
    func pending(after seconds: Double = 0.3) async throws -> [JSONObject] {
        try await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
        return inbox.withLock { $0 }
    }

    func ack(_ id: String) async throws {
        let writer = outbound.withLock { $0 }
        try await writer?.write(.text(#"{"type":"ack","id":"\#(id)"}"#))
    }

    func close() async {
        let writer = outbound.withLock { $0 }
        try? await writer?.close(.normalClosure, reason: nil)
        _ = await eventually { isClosed }
        task.withLock { $0?.cancel() }
    }
}
