import AsyncHTTPClient
import KithPush
import NIOCore
import NIOHTTP1

/// Delivers knocks to Web Push subscriptions: an RFC 8030 POST of an RFC 8291 `aes128gcm` body,
/// authorized with an RFC 8292 VAPID JWT.
///
/// One attempt per ``deliver(_:)``; every failure maps to a ``PushDeliveryOutcome``:
/// 2xx delivered; 404/410 target gone; 3xx (never followed), 400, 401, 403, 413 and other 4xx rejected;
/// 408, 429, 5xx, timeouts and connection errors retryable (with `Retry-After` when given).
/// Endpoints are checked against ``WebPushProviderConfiguration/endpointPolicy`` and oversized payloads
/// are rejected before any request is made.
public struct WebPushProvider: PushProvider {
    /// Always ``PushTargetKind/webPush``.
    public var kind: PushTargetKind { .webPush }

    private let configuration: WebPushProviderConfiguration
    private let exchange: PushHTTPExchange
    private let tokens: VAPIDTokenCache
    private let pinnedClients: (any PinnedClientSource)?

    /// Creates a provider on a shared client (make it with ``PushHTTPSettings/makeHTTPClient(tlsConfiguration:connectTimeout:)``
    /// so that redirects are not followed).
    ///
    /// With `pinnedClients`, a request to an endpoint whose name was resolved and checked against the endpoint policy
    /// connects to the checked address (``PinnedClientSource``), so a DNS answer that changes between the check and
    /// the connection (DNS rebinding) cannot send it into a private network; without, the shared client resolves the
    /// name again when it connects.
    public init(configuration: WebPushProviderConfiguration, httpClient: HTTPClient, pinnedClients: (any PinnedClientSource)? = nil) {
        self.configuration = configuration
        self.pinnedClients = pinnedClients
        self.exchange = PushHTTPExchange(client: httpClient, settings: configuration.http)
        self.tokens = VAPIDTokenCache(
            signer: configuration.signer, subject: configuration.subject,
            lifetime: configuration.tokenLifetimeSeconds, refreshMargin: configuration.tokenRefreshMarginSeconds
        )
    }

    /// Encrypts, signs and posts one push.
    public func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome {
        guard case let .webPush(endpointURL, keys) = notification.target else {
            return .rejected(reason: "not a Web Push target")
        }
        guard notification.presence == nil else { return .rejected(reason: "presence alerts go to APNs or FCM only") }
        guard notification.payload.count <= PushLimits.maxPlaintextBytes else {
            return .rejected(reason: "payload is \(notification.payload.count) bytes; Web Push carries at most \(PushLimits.maxPlaintextBytes)")
        }
        guard notification.timeToLiveSeconds >= 0 else { return .rejected(reason: "negative TTL") }
        if let topic = notification.topic, !WebPushTopic.isValid(topic) {
            return .rejected(reason: "topic is not 1…32 base64url characters (RFC 8030 §5.4)")
        }
        let endpoint: WebPushEndpoint
        do throws(WebPushEndpointError) { endpoint = try configuration.endpointPolicy.check(endpointURL) } catch {
            return .rejected(reason: error.description)
        }
        var exchange = exchange
        if !configuration.endpointPolicy.allowPrivateAddresses, !endpoint.hostIsIPLiteral {
            let addresses: [[UInt8]]
            do { addresses = try await configuration.hostResolver.addresses(of: endpoint.host) } catch {
                return .retryable(reason: "push service host did not resolve", retryAfterSeconds: nil)
            }
            guard !addresses.isEmpty else { return .retryable(reason: "push service host did not resolve", retryAfterSeconds: nil) }
            do throws(WebPushEndpointError) { try configuration.endpointPolicy.check(resolvedAddresses: addresses, of: endpoint.host) } catch {
                return .rejected(reason: error.description)
            }
            // Connect to the address just checked, not to whatever the name resolves to next.
            if let pinnedClients, let address = addresses.first.flatMap(IPAddressText.init(bytes:)) {
                guard let client = pinnedClients.client(host: endpoint.host, address: address.text) else {
                    return .retryable(reason: "the push provider is shutting down", retryAfterSeconds: nil)
                }
                exchange = PushHTTPExchange(client: client, settings: configuration.http)
            }
        }
        let body: [UInt8]
        do { body = try WebPushEncryption.encrypt(notification.payload, for: keys) } catch {
            return .rejected(reason: "encryption failed: \(error)")
        }
        let now = configuration.clock.now()
        let authorization: VAPIDAuthorization
        do throws(VAPIDError) { authorization = try await tokens.authorization(origin: endpoint.origin, now: now) } catch {
            return .rejected(reason: "VAPID signing failed: \(error.code)")
        }

        var request = HTTPClientRequest(url: endpoint.requestURL)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(min(notification.timeToLiveSeconds, Int(Int32.max))))
        request.headers.add(name: "Urgency", value: notification.priority == .high ? "high" : "normal")
        if let topic = notification.topic { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Authorization", value: authorization.headerValue)
        request.body = .bytes(ByteBuffer(bytes: body))

        switch await exchange.send(request) {
        case let .transportFailure(reason):
            return .retryable(reason: "push service unreachable: \(reason)", retryAfterSeconds: nil)
        case let .response(status, headers, _):
            return Self.outcome(status: status, headers: headers, now: now)
        }
    }

    /// Maps a push service's answer to an outcome.
    static func outcome(status: Int, headers: HTTPHeaders, now: Int64) -> PushDeliveryOutcome {
        switch status {
        case 200...299:
            return .delivered
        case 300...399:
            return .rejected(reason: "push service answered \(status) (redirects are never followed)")
        case 404, 410:
            return .targetGone(reason: "push service answered \(status): subscription expired or removed")
        case 408, 429, 500...599:
            return .retryable(reason: "push service answered \(status)", retryAfterSeconds: RetryAfter.seconds(in: headers, now: now))
        default:
            return .rejected(reason: "push service answered \(status)")
        }
    }
}
