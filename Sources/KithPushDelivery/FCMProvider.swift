import AsyncHTTPClient
import KithCanonical
import NIOCore
import NIOHTTP1

/// Delivers knocks to Android devices through FCM HTTP v1 (`POST <base>/v1/projects/<project>/messages:send`),
/// authorized by an OAuth 2.0 access token from the service account.
///
/// One attempt per ``deliver(_:)``. Error codes map to outcomes: `UNREGISTERED` target gone;
/// `INVALID_ARGUMENT`, `SENDER_ID_MISMATCH`, `THIRD_PARTY_AUTH_ERROR` and other 4xx rejected;
/// `QUOTA_EXCEEDED`, `UNAVAILABLE`, `INTERNAL` and other 429/5xx retryable; a bare 401 drops the access
/// token and is retryable.
public struct FCMProvider: PushProvider {
    /// Always ``PushTargetKind/fcm``.
    public var kind: PushTargetKind { .fcm }

    private let configuration: FCMProviderConfiguration
    private let exchange: PushHTTPExchange
    private let tokens: FCMAccessTokenCache

    /// Creates a provider on a shared client.
    public init(configuration: FCMProviderConfiguration, httpClient: HTTPClient) {
        self.configuration = configuration
        self.exchange = PushHTTPExchange(client: httpClient, settings: configuration.http)
        self.tokens = FCMAccessTokenCache(
            account: configuration.serviceAccount, margin: configuration.accessTokenRefreshMarginSeconds,
            exchange: exchange, clock: configuration.clock
        )
    }

    /// How many access tokens were requested so far (for tests and metrics).
    public var accessTokensFetched: Int {
        get async { await tokens.fetchCount }
    }

    /// Sends one message.
    public func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome {
        guard case let .fcm(registrationToken) = notification.target else { return .rejected(reason: "not an FCM target") }
        guard !registrationToken.isEmpty, registrationToken.utf8.count <= 4_096,
              registrationToken.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
            return .rejected(reason: "registration token is empty, too long or has characters outside printable ASCII")
        }
        guard notification.timeToLiveSeconds >= 0 else { return .rejected(reason: "negative TTL") }
        let body: [UInt8]
        if let presence = notification.presence {
            guard presence.isDeliverable else { return .rejected(reason: "presence alert room id or text out of bounds") }
            body = PresencePayloads.fcm(presence, registrationToken: registrationToken, timeToLiveSeconds: notification.timeToLiveSeconds)
        } else {
            guard let knock = FCMMessage.body(
                registrationToken: registrationToken, knock: notification.payload,
                priority: notification.priority, timeToLiveSeconds: notification.timeToLiveSeconds
            ) else {
                return .rejected(reason: "knock body is not a JSON object with a message object")
            }
            guard notification.payload.count <= FCMMessage.maxDataBytes else {
                return .rejected(reason: "knock body is \(notification.payload.count) bytes; FCM data carries at most \(FCMMessage.maxDataBytes)")
            }
            body = knock
        }
        let token: FCMAccessTokenCache.AccessToken
        switch await tokens.accessToken() {
        case let .token(value): token = value
        case let .failed(outcome): return outcome
        }

        let project = configuration.serviceAccount.projectID
        var request = HTTPClientRequest(url: "\(configuration.baseURL)/v1/projects/\(project)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(token.value)")
        request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        request.body = .bytes(ByteBuffer(bytes: body))

        switch await exchange.send(request) {
        case let .transportFailure(reason):
            return .retryable(reason: "FCM unreachable: \(reason)", retryAfterSeconds: nil)
        case let .response(status, headers, responseBody):
            let now = configuration.clock.now()
            let code = Self.errorCode(responseBody)
            if status == 401, code == nil || code == "UNAUTHENTICATED" {
                await tokens.reject(token)
                return .retryable(reason: "FCM 401: access token refused; a new one will be fetched", retryAfterSeconds: nil)
            }
            return Self.outcome(status: status, code: code, headers: headers, now: now)
        }
    }

    /// The FCM error code of a response body: `details[].errorCode` of the `FcmError` detail, else `error.status`.
    static func errorCode(_ body: [UInt8]) -> String? {
        guard let error = ProviderErrorBody.object(body)?["error"]?.objectValue else { return nil }
        if case let .array(details)? = error["details"] {
            for detail in details {
                if let code = ProviderErrorBody.code(detail.objectValue?["errorCode"]?.stringValue) { return code }
            }
        }
        return ProviderErrorBody.code(error["status"]?.stringValue)
    }

    /// Maps FCM's answer to an outcome.
    static func outcome(status: Int, code: String?, headers: HTTPHeaders, now: Int64) -> PushDeliveryOutcome {
        let label = "FCM \(status)" + (code.map { " \($0)" } ?? "")
        if status == 200 { return .delivered }
        switch code {
        case "UNREGISTERED":
            return .targetGone(reason: label)
        case "INVALID_ARGUMENT", "SENDER_ID_MISMATCH", "THIRD_PARTY_AUTH_ERROR":
            return .rejected(reason: label)
        case "QUOTA_EXCEEDED", "UNAVAILABLE", "INTERNAL":
            return .retryable(reason: label, retryAfterSeconds: RetryAfter.seconds(in: headers, now: now))
        default:
            if status == 429 || (500...599).contains(status) {
                return .retryable(reason: label, retryAfterSeconds: RetryAfter.seconds(in: headers, now: now))
            }
            return .rejected(reason: label)
        }
    }
}
