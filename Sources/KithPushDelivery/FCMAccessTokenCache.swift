import AsyncHTTPClient
import KithCanonical
import NIOCore

/// OAuth 2.0 access tokens for FCM from the service account's JWT-bearer grant (RFC 7523),
/// cached until shortly before they expire; concurrent deliveries share one token request.
actor FCMAccessTokenCache {
    /// A token and its expiry.
    struct AccessToken: Sendable, Equatable {
        let value: String
        let expiresAt: Int64
    }

    /// The result of obtaining a token: the token, or the outcome to report instead of sending.
    enum Fetch: Sendable {
        case token(AccessToken)
        case failed(PushDeliveryOutcome)
    }

    private let account: FCMServiceAccount
    private let margin: Int64
    private let exchange: PushHTTPExchange
    private let clock: PushClock
    private var current: AccessToken?
    private var inFlight: Task<Fetch, Never>?
    private(set) var fetchCount = 0

    init(account: FCMServiceAccount, margin: Int64, exchange: PushHTTPExchange, clock: PushClock) {
        self.account = account
        self.margin = margin
        self.exchange = exchange
        self.clock = clock
    }

    /// A valid access token, fetching one when none is cached or the cached one is about to expire.
    func accessToken() async -> Fetch {
        let now = clock.now()
        if let current, current.expiresAt - now > margin { return .token(current) }
        if let inFlight { return await inFlight.value }
        let task = Task { await self.fetch(now: now) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        if case let .token(token) = result { current = token }
        return result
    }

    /// Forgets `token` after FCM refused it, so that the next delivery fetches a new one.
    func reject(_ token: AccessToken) {
        if current == token { current = nil }
    }

    private func fetch(now: Int64) async -> Fetch {
        fetchCount += 1
        let header: JSONObject = ["alg": .string("RS256"), "typ": .string("JWT")]
        let claims: JSONObject = [
            "iss": .string(account.clientEmail),
            "scope": .string(FCMProviderConfiguration.scope),
            "aud": .string(account.tokenURI),
            "iat": .integer(now),
            "exp": .integer(now + 3_600),
        ]
        let assertion: String
        do { assertion = try CompactJWT.rs256(header: header, claims: claims, key: account.privateKey) } catch {
            return .failed(.rejected(reason: "OAuth assertion signing failed"))
        }
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        request.body = .bytes(ByteBuffer(string: form))

        switch await exchange.send(request) {
        case let .transportFailure(reason):
            return .failed(.retryable(reason: "OAuth token endpoint unreachable: \(reason)", retryAfterSeconds: nil))
        case let .response(status, headers, body):
            let object = ProviderErrorBody.object(body)
            guard status == 200 else {
                let code = ProviderErrorBody.code(object?["error"]?.stringValue).map { " \($0)" } ?? ""
                let label = "OAuth token endpoint answered \(status)\(code)"
                if status == 429 || status >= 500 {
                    return .failed(.retryable(reason: label, retryAfterSeconds: RetryAfter.seconds(in: headers, now: now)))
                }
                return .failed(.rejected(reason: label + ": check the service account"))
            }
            guard let value = object?["access_token"]?.stringValue, !value.isEmpty, value.utf8.count <= 4_096,
                  value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return .failed(.retryable(reason: "OAuth token response has no usable access_token", retryAfterSeconds: nil))
            }
            let lifetime = min(max(object?["expires_in"]?.integerValue ?? 3_600, 60), 86_400)
            return .token(AccessToken(value: value, expiresAt: now + lifetime))
        }
    }
}
