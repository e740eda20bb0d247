import Crypto
import Hummingbird
import KithCanonical
import KithPush
import KithRendezvous
import Logging
import Synchronization

/// The self-hosted push service (RFC 8030 push resources and a WebSocket subscriber channel),
/// `/push/`. Logs carry route templates and counts, never capabilities, secrets or bodies.
struct PushServiceAPI: PushAPIStep, Sendable {
    let store: any PushStore
    let clock: any ServerClock
    let limits: PushServerLimits
    let hub: PushSubscriberHub
    let metrics: PushMetrics
    let logger: Logger
    let publicBase: PublicBaseURL
    let requestsPerSource: RateLimiter
    let subscriptionsPerSource: RateLimiter
    let messagesPerCapability: RateLimiter

    init(store: any PushStore, clock: any ServerClock, limits: PushServerLimits, hub: PushSubscriberHub, metrics: PushMetrics, logger: Logger,
         publicBase: PublicBaseURL, rateLimiterKeys: Int) {
        self.store = store
        self.clock = clock
        self.limits = limits
        self.hub = hub
        self.metrics = metrics
        self.logger = logger
        self.publicBase = publicBase
        requestsPerSource = RateLimiter(rule: limits.pushRequestsPerSource, maximumKeys: rateLimiterKeys)
        subscriptionsPerSource = RateLimiter(rule: limits.subscriptionsPerSource, maximumKeys: rateLimiterKeys)
        messagesPerCapability = RateLimiter(rule: limits.messagesPerCapability, maximumKeys: rateLimiterKeys)
    }

    /// Largest subscription request body (a VAPID key is 87 characters).
    static let maximumSubscriptionBodyBytes = 1_024

    /// `POST /push/subscriptions` `{"vapid_key"?}` → 201 + `Location` + `Link` + `{endpoint, subscription}` | 400 | 413 | 415 | 429.
    func createSubscription(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let body = try await GatewayBody.object(request, limit: Self.maximumSubscriptionBodyBytes)
        var vapidKey: [UInt8]?
        if let text = try GatewayBody.optionalString(body, "vapid_key", maximumLength: 100) {
            guard let key = try? Base64URL.decode(text), key.count == PushLimits.publicKeyLength, key.first == 0x04,
                  (try? P256.Signing.PublicKey(x963Representation: key)) != nil else {
                throw .field("vapid_key", "Expected the base64url of a 65-byte uncompressed P-256 public key.")
            }
            vapidKey = key
        }
        try limit(subscriptionsPerSource, "subscribe:" + context.sourceKey)
        guard try await stored({ () async throws(PushStoreError) in try await store.subscriptionCount() }) < limits.maximumSubscriptions else {
            throw .full("This push service holds its maximum of subscriptions; try later.")
        }
        let secret = PushSecret.random()
        let capability = PushSecret.random()
        let record = PushSubscriptionRecord(
            id: PushSecret.random(bytes: 16), secretDigest: PushSecret.digest(secret), capabilityDigest: PushSecret.digest(capability),
            vapidKey: vapidKey, createdAt: clock.nowMilliseconds())
        try await stored { () async throws(PushStoreError) in try await store.createSubscription(record) }
        let endpoint = publicBase.value + "/push/" + capability
        var response = RESTResponse.json(.created, ["endpoint": .string(endpoint), "subscription": .string(secret)])
        response.headers[.location] = "/push/subscriptions/" + secret
        response.headers[.init("Link")!] = "<\(endpoint)>; rel=\"urn:ietf:params:push\""
        return response
    }

    /// `POST /push/<capability>` → 201 + `Location` + `TTL` | 400 | 401 | 403 | 404 | 410 | 413 | 429.
    func pushMessage(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        guard let capability = context.parameters.get("capability"), PushSecret.isWellFormed(capability) else { throw .notFound }
        let digest = PushSecret.digest(capability)
        let subscription: PushSubscriptionRecord
        switch try await stored({ () async throws(PushStoreError) in try await store.subscription(capabilityDigest: digest) }) {
        case nil: throw .notFound
        case .deleted?: throw GatewayRejection(.gone, nil)
        case .live(let record)?:
            guard ConstantTime.equals(record.capabilityDigest, digest) else { throw .notFound }
            subscription = record
        }
        if let key = subscription.vapidKey { try verifyVAPID(request, key: key) }
        let headers: PushMessageHeaders
        do throws(PushMessageHeaders.Problem) {
            headers = try PushMessageHeaders(
                ttl: request.headers[values: .init("TTL")!], urgency: request.headers[values: .init("Urgency")!],
                topic: request.headers[values: .init("Topic")!], maximumTimeToLiveSeconds: limits.maximumTimeToLiveSeconds)
        } catch {
            throw .badRequest(error.message)
        }
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "aes128gcm" {
            throw .badRequest("Content-Encoding must be aes128gcm (RFC 8291)")
        }
        guard let body = await request.boundedBody(limit: limits.maximumPushMessageBytes) else {
            throw GatewayRejection(.contentTooLarge, ["error": .string("push messages are limited to \(limits.maximumPushMessageBytes) bytes")])
        }
        guard !body.isEmpty else { throw .badRequest("a push message needs a body (an RFC 8291 aes128gcm record)") }
        try limit(messagesPerCapability, "capability:" + subscription.id)
        let now = clock.nowMilliseconds()
        let message = PushMessageRecord(
            id: PushSecret.random(bytes: 16), subscriptionID: subscription.id, body: body, urgency: headers.urgency, topic: headers.topic,
            createdAt: now, expiresAt: now + Int64(headers.timeToLiveSeconds) * 1_000)
        if headers.timeToLiveSeconds > 0 {
            let dropped = try await stored { () async throws(PushStoreError) in
                try await store.storeMessage(message, maximumPerSubscription: limits.messagesPerSubscription)
            }
            metrics.messageStored()
            metrics.messagesDropped(dropped)
        }
        // TTL 0: delivered now to a connected subscriber, or never.
        hub.offer(message)
        var response = Response(status: .created)
        response.headers[.location] = "/push/messages/" + message.id
        response.headers[.init("TTL")!] = String(headers.timeToLiveSeconds)
        return response
    }

    /// RFC 8292 §4.2 for a restricted subscription: 401 without VAPID, 403 when it does not verify.
    private func verifyVAPID(_ request: Request, key: [UInt8]) throws(GatewayRejection) {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("vapid") else {
            var rejection = GatewayRejection(.unauthorized, ["error": "this subscription requires VAPID (RFC 8292)"])
            rejection.headers = [.wwwAuthenticate: "vapid"]
            throw rejection
        }
        do throws(VAPIDError) {
            _ = try VAPIDVerifier(audience: publicBase.origin).verify(headerValue: header, now: clock.nowMilliseconds() / 1_000, restrictedTo: key)
        } catch {
            throw GatewayRejection(.forbidden, ["error": .string("VAPID rejected: \(error.code)")])
        }
    }

    /// `DELETE /push/subscriptions/<secret>` → 204 (the capability answers 410 from now on) | 404.
    func deleteSubscription(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        guard let secret = context.parameters.get("secret"), PushSecret.isWellFormed(secret) else { throw .notFound }
        let digest = PushSecret.digest(secret)
        guard let subscription = try await stored({ () async throws(PushStoreError) in try await store.subscription(secretDigest: digest) }),
              ConstantTime.equals(subscription.secretDigest, digest) else { throw .notFound }
        let now = clock.nowMilliseconds()
        guard try await stored({ () async throws(PushStoreError) in try await store.deleteSubscription(secretDigest: digest, now: now) }) else {
            throw .notFound
        }
        hub.finishAll(subscriptionID: subscription.id)
        return Response(status: .noContent)
    }

    /// The live subscription a WebSocket upgrade names; 404 otherwise, 429 when rate-limited.
    func subscriber(_ context: RendezvousRequestContext) async throws(GatewayRejection) -> PushSubscriptionRecord {
        try limit(requestsPerSource, context.sourceKey)
        guard let secret = context.parameters.get("secret"), PushSecret.isWellFormed(secret) else { throw .notFound }
        let digest = PushSecret.digest(secret)
        guard let subscription = try await stored({ () async throws(PushStoreError) in try await store.subscription(secretDigest: digest) }),
              ConstantTime.equals(subscription.secretDigest, digest) else { throw .notFound }
        return subscription
    }
}

/// The push service's public base URL: configured, or `http://<host>:<port>` once the port is bound.
final class PublicBaseURL: Sendable {
    private let configured: String?
    private let bound = Mutex<String>("")
    /// `https` when the server serves TLS itself.
    private let scheme: String

    init(configured: String?, fallback: String, scheme: String = "http") {
        self.scheme = scheme
        var trimmed = configured
        while trimmed?.hasSuffix("/") == true { trimmed?.removeLast() }
        self.configured = trimmed
        bound.withLock { $0 = fallback }
    }

    /// Records the bound address (when no URL is configured).
    func listening(host: String, port: Int) {
        let shown = host.contains(":") ? "[\(host)]" : host
        bound.withLock { [scheme] in $0 = "\(scheme)://\(shown):\(port)" }
    }

    /// The base URL, without a trailing slash.
    var value: String { configured ?? bound.withLock { $0 } }

    /// `scheme://host[:port]` of the base URL: the VAPID `aud` this service expects.
    var origin: String {
        let text = value
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        return String(text[..<authorityEnd])
    }
}
