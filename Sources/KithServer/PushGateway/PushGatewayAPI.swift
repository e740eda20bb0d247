import Crypto
import Foundation
import Hummingbird
import KithCanonical
import KithPush
import KithPushDelivery
import KithRendezvous
import Logging

/// The ChatSecure-Push-compatible gateway, `/api/v1/`: accounts, devices, whitelist tokens and the
/// knock, with ChatSecure's defects fixed (`docs/PUSH.md`). Logs carry route templates and counts,
/// never tokens, passwords, registration ids or endpoints.
struct PushGatewayAPI: PushAPIStep, Sendable {
    let store: any PushStore
    let clock: any ServerClock
    let limits: PushServerLimits
    let dispatcher: PushDispatcher
    let metrics: PushMetrics
    let logger: Logger
    let hasher: PasswordHasher
    let requestsPerSource: RateLimiter
    let accountsPerSource: RateLimiter
    let knocksPerSource: RateLimiter
    let knocksPerToken: RateLimiter
    let loginsPerUsername: RateLimiter
    let endpointPolicy: WebPushEndpointPolicy?

    init(store: any PushStore, clock: any ServerClock, limits: PushServerLimits, dispatcher: PushDispatcher, metrics: PushMetrics, logger: Logger,
         rateLimiterKeys: Int, endpointPolicy: WebPushEndpointPolicy? = nil) {
        self.endpointPolicy = endpointPolicy
        self.store = store
        self.clock = clock
        self.limits = limits
        self.dispatcher = dispatcher
        self.metrics = metrics
        self.logger = logger
        hasher = PasswordHasher(rounds: limits.passwordRounds, maximumConcurrent: limits.concurrentPasswordHashes)
        requestsPerSource = RateLimiter(rule: limits.gatewayRequestsPerSource, maximumKeys: rateLimiterKeys)
        accountsPerSource = RateLimiter(rule: limits.accountsPerSource, maximumKeys: rateLimiterKeys)
        knocksPerSource = RateLimiter(rule: limits.knocksPerSource, maximumKeys: rateLimiterKeys)
        knocksPerToken = RateLimiter(rule: limits.knocksPerToken, maximumKeys: rateLimiterKeys)
        loginsPerUsername = RateLimiter(rule: limits.loginsPerUsername, maximumKeys: rateLimiterKeys)
    }

    // MARK: Accounts

    /// `POST accounts/` → 201 created | 200 login (a fresh API token) | 400 | 401 | 429.
    func createAccount(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        try limit(requestsPerSource, context.sourceKey)
        let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
        let username = try GatewayBody.requiredString(body, "username", maximumLength: 30)
        guard username.unicodeScalars.allSatisfy(Self.isUsernameCharacter) else {
            throw .field("username", "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.")
        }
        let password = try GatewayBody.requiredString(body, "password", maximumLength: 100)
        var email = try GatewayBody.optionalString(body, "email", maximumLength: 254)
        if email?.isEmpty == true { email = nil }
        if let email, !Self.looksLikeEmail(email) { throw .field("email", "Enter a valid email address.") }
        // Creating and logging in both hash a password: limited per source before any hashing.
        try limit(accountsPerSource, context.sourceKey)
        let token = WhitelistToken.generate()
        let digest = token.storageDigest
        if let existing = try await stored({ () async throws(PushStoreError) in try await store.account(username: username) }) {
            return try await login(existing, password: password, token: token, digest: digest)
        }
        // Bounded in total too: per-source limits alone let many sources fill the store.
        guard try await stored({ () async throws(PushStoreError) in try await store.accountCount() }) < limits.maximumAccounts else {
            throw .full("This gateway holds its maximum of accounts; try another gateway or later.")
        }
        guard let record = try await hashed({ () async throws(PasswordHasher.Busy) in try await hasher.record(password) }) else {
            throw .internalError
        }
        let account = PushAccount(
            id: UUID().uuidString.lowercased(), username: username, email: email, passwordRecord: record, authDigest: digest,
            createdAt: clock.nowMilliseconds())
        let created = try await stored { () async throws(PushStoreError) in try await store.createAccount(account) }
        guard created else {
            // Another request created the name meanwhile: this one is a login.
            guard let existing = try await stored({ () async throws(PushStoreError) in try await store.account(username: username) }) else {
                throw .internalError
            }
            return try await login(existing, password: password, token: token, digest: digest)
        }
        return RESTResponse.json(.created, Self.accountJSON(account, token: token))
    }

    private func login(_ account: PushAccount, password: String, token: WhitelistToken, digest: [UInt8]) async throws(GatewayRejection) -> Response {
        try limit(loginsPerUsername, "login:" + account.username)
        guard try await hashed({ () async throws(PasswordHasher.Busy) in try await hasher.verify(password, record: account.passwordRecord) }) else {
            throw GatewayRejection(.unauthorized, ["error": "Invalid credentials"])
        }
        try await stored { () async throws(PushStoreError) in try await store.replaceAuthDigest(accountID: account.id, digest: digest) }
        return RESTResponse.json(.ok, Self.accountJSON(account, token: token))
    }

    /// Runs a password hash; 429 (retry in 1 s) when too many run already.
    private func hashed<T>(_ work: () async throws(PasswordHasher.Busy) -> T) async throws(GatewayRejection) -> T {
        do throws(PasswordHasher.Busy) {
            return try await work()
        } catch {
            throw .rateLimited(retryAfterSeconds: 1)
        }
    }

    /// `GET accounts/` → the caller's account.
    func ownAccount(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        return RESTResponse.json(.ok, Self.accountJSON(account, token: nil))
    }

    /// `GET accounts/<username>/` → 200 own | 403 another's | 404.
    func account(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        try await requireOwn(account, username: context.parameters.get("username") ?? "")
        return RESTResponse.json(.ok, Self.accountJSON(account, token: nil))
    }

    /// `DELETE accounts/<username>/` → 204 (devices and tokens go with it) | 403 | 404.
    func deleteAccount(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        try await requireOwn(account, username: context.parameters.get("username") ?? "")
        _ = try await stored { () async throws(PushStoreError) in try await store.deleteAccount(id: account.id) }
        return Response(status: .noContent)
    }

    private func requireOwn(_ account: PushAccount, username: String) async throws(GatewayRejection) {
        if SecretComparison.equal(account.username, username) { return }
        guard username.count <= 150, try await stored({ () async throws(PushStoreError) in try await store.account(username: username) }) != nil else {
            throw .notFound
        }
        throw GatewayRejection(.forbidden, ["detail": "You do not have permission to perform this action."])
    }

    /// An account object. Every value is a string, `""` for no email: the ChatSecure-Push SDK decodes the whole object
    /// as `[String: String]` and fails registration on a null (docs/PUSH.md, "ChatSecure clients").
    static func accountJSON(_ account: PushAccount, token: WhitelistToken?) -> JSONObject {
        var object: JSONObject = [
            "username": .string(account.username), "email": .string(account.email ?? ""), "id": .string(account.id),
        ]
        if let token { object["token"] = .string(token.hex) }
        return object
    }

    static func isUsernameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "@", ".", "+", "-", "_": true
        default: false
        }
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(where: { $0.isWhitespace })
    }

    // MARK: Helpers

    /// The account of `Authorization: Token <40 hex>` (its digest looked up, then compared in constant time); 401 otherwise.
    func authenticate(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> PushAccount {
        try await authenticatedCaller(request, context).account
    }

    /// The caller's account and the API token it presented (tokens are derived from it: ``PushTokenDerivation``); 401 otherwise.
    func authenticatedCaller(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> (account: PushAccount, apiToken: WhitelistToken) {
        try limit(requestsPerSource, context.sourceKey)
        guard let header = request.headers[.authorization], header.utf8.count <= 64 else { throw .unauthorized }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "token", let token = try? WhitelistToken(hex: String(parts[1])) else { throw .unauthorized }
        let digest = token.storageDigest
        guard let account = try await stored({ () async throws(PushStoreError) in try await store.account(authDigest: digest) }),
              ConstantTime.equals(account.authDigest, digest) else { throw .unauthorized }
        return (account, token)
    }
}
