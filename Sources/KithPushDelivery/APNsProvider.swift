import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Delivers knocks to Apple devices through the APNs HTTP/2 provider API with token-based (JWT) auth.
///
/// One attempt per ``deliver(_:)``. The provider token is an ES256 JWT reused for
/// ``APNsProviderConfiguration/tokenRefreshSeconds`` (never minted per request). Reasons map to outcomes:
/// 200 delivered; 410 `Unregistered`, 400 `BadDeviceToken` / `DeviceTokenNotForTopic` target gone;
/// 403 `ExpiredProviderToken` / `InvalidProviderToken` retryable once with a new token (rejected when a
/// fresh token is refused); 429, 500, 503 and other 5xx retryable; other 4xx rejected.
public struct APNsProvider: PushProvider {
    /// The longest expiration requested (30 days); longer TTLs are clamped.
    public static let maxTimeToLiveSeconds = 2_592_000

    /// Always ``PushTargetKind/apns``.
    public var kind: PushTargetKind { .apns }

    private let configuration: APNsProviderConfiguration
    private let exchange: PushHTTPExchange
    private let tokens: APNsTokenCache

    /// Creates a provider on a shared client (HTTP/2 is negotiated with ALPN over TLS).
    public init(configuration: APNsProviderConfiguration, httpClient: HTTPClient) {
        self.configuration = configuration
        self.exchange = PushHTTPExchange(client: httpClient, settings: configuration.http)
        self.tokens = APNsTokenCache(
            key: configuration.signingKey, keyID: configuration.keyID,
            teamID: configuration.teamID, refreshSeconds: configuration.tokenRefreshSeconds
        )
    }

    /// How many provider tokens were minted so far (for tests and metrics).
    public var providerTokensMinted: Int {
        get async { await tokens.mintedCount }
    }

    /// Posts one push.
    public func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome {
        guard case let .apns(rawToken) = notification.target else { return .rejected(reason: "not an APNs target") }
        let deviceToken = rawToken.lowercased()
        guard (16...200).contains(deviceToken.utf8.count), deviceToken.utf8.count % 2 == 0,
              deviceToken.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            return .targetGone(reason: "device token is not an even-length hex string of 16…200 characters")
        }
        guard notification.timeToLiveSeconds >= 0 else { return .rejected(reason: "negative TTL") }
        if let topic = notification.topic, topic.isEmpty || topic.utf8.count > 64 {
            return .rejected(reason: "collapse id (topic) must be 1…64 bytes")
        }
        let payload: APNsPayload
        if let presence = notification.presence {
            guard presence.isDeliverable else { return .rejected(reason: "presence alert room id or text out of bounds") }
            payload = APNsPayload(presence: presence)
        } else {
            guard let knock = APNsPayload(knock: notification.payload, priority: notification.priority, alertText: configuration.alertText) else {
                return .rejected(reason: "knock body is not a JSON object with a message object")
            }
            payload = knock
        }
        guard payload.body.count <= APNsPayload.maxBytes else {
            return .rejected(reason: "APNs payload is \(payload.body.count) bytes; the limit is \(APNsPayload.maxBytes)")
        }
        let now = configuration.clock.now()
        let token: APNsTokenCache.Token
        do { token = try await tokens.token(now: now) } catch {
            return .rejected(reason: "provider token signing failed")
        }

        var request = HTTPClientRequest(url: "https://\(configuration.host):\(configuration.port)/3/device/\(deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(token.jwt)")
        request.headers.add(name: "apns-push-type", value: payload.pushType)
        request.headers.add(name: "apns-topic", value: configuration.bundleID)
        request.headers.add(name: "apns-priority", value: String(payload.priority))
        let ttl = Int64(min(notification.timeToLiveSeconds, Self.maxTimeToLiveSeconds))
        request.headers.add(name: "apns-expiration", value: ttl == 0 ? "0" : String(now + ttl))
        if let topic = notification.topic { request.headers.add(name: "apns-collapse-id", value: topic) }
        request.headers.add(name: "apns-id", value: UUID().uuidString.lowercased())
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: payload.body))

        switch await exchange.send(request) {
        case let .transportFailure(reason):
            return .retryable(reason: "APNs unreachable: \(reason)", retryAfterSeconds: nil)
        case let .response(status, headers, body):
            let reason = ProviderErrorBody.code(ProviderErrorBody.object(body)?["reason"]?.stringValue)
            return await outcome(status: status, reason: reason, headers: headers, token: token, now: now)
        }
    }

    private func outcome(status: Int, reason: String?, headers: HTTPHeaders, token: APNsTokenCache.Token, now: Int64) async -> PushDeliveryOutcome {
        let label = "APNs \(status)" + (reason.map { " \($0)" } ?? "")
        switch (status, reason) {
        case (200, _):
            return .delivered
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            return .targetGone(reason: label)
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
            if await tokens.reject(token, now: now) {
                return .retryable(reason: "\(label); provider token replaced", retryAfterSeconds: nil)
            }
            return .rejected(reason: "\(label) for a fresh token: check the key, key id and team id")
        case (429, _), (500...599, _):
            return .retryable(reason: label, retryAfterSeconds: RetryAfter.seconds(in: headers, now: now))
        default:
            return .rejected(reason: label)
        }
    }
}
