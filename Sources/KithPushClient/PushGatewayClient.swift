import AsyncHTTPClient
import KithCanonical
import KithFeed
import KithPush
import NIOCore

/// A client of a ChatSecure-Push-compatible gateway (`kith serve`'s `/api/v1/`, docs/PUSH-CLIENT.md): the
/// account, the Web Push device, whitelist tokens, and knocks on contacts' gateways.
///
/// ```swift
/// let gateway = try PushGatewayClient(baseURL: "http://127.0.0.1:8080")
/// let account = try await gateway.createAccount(username: name, password: password)
/// let device = try await gateway.registerWebPushDevice(endpoint: endpoint, keys: keys.subscriberKeys, authToken: account.authToken)
/// let tokens = try await gateway.createTokens(count: 10, device: device.id, authToken: account.authToken)
/// try await PushGatewayClient.knock(apiBase: handedOverEndpoint, token: token)      // on a contact's gateway
/// ```
public struct PushGatewayClient: Sendable {
    /// The gateway's API base, ending in `/api/v1/`.
    public let apiBase: String
    private let http: PushHTTP

    /// A client of the gateway at `baseURL` (`http://HOST:PORT`, with or without `/api/v1/`).
    public init(baseURL: String, httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(10)) throws(PushClientError) {
        var base = try PushHTTP.base(baseURL)
        if !base.hasSuffix("/api/v1") { base += "/api/v1" }
        apiBase = base + "/"
        http = PushHTTP(httpClient: httpClient, timeout: timeout)
    }

    // MARK: Account

    /// Creates the install's anonymous account, or logs in when it exists with this password.
    ///
    /// - Throws: ``PushClientError/invalidCredentials`` when the username exists with another password.
    public func createAccount(username: String, password: String) async throws(PushClientError) -> GatewayAccount {
        var body = JSONObject()
        body["username"] = .string(username)
        body["password"] = .string(password)
        let answer = try await http.send(.POST, apiBase + "accounts/", body: body)
        guard answer.status == 201 || answer.status == 200 else { throw answer.failure() }
        let object = try answer.object()
        // The token goes into an `Authorization` header and the files of this install: visible ASCII only.
        guard let name = object["username"]?.stringValue, let token = object["token"]?.stringValue,
              token.utf8.count <= 256, !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidResponse(status: answer.status, reason: "the account answer lacks 'username' or a 'token' of 1...256 visible ASCII characters")
        }
        let id = object["id"]?.stringValue ?? object["id"]?.integerValue.map { "\($0)" } ?? ""
        return GatewayAccount(username: name, id: id, authToken: token, created: answer.status == 201)
    }

    /// Deletes the account (and, at the gateway, its devices and tokens).
    public func deleteAccount(username: String, authToken: String) async throws(PushClientError) {
        let answer = try await http.send(.DELETE, apiBase + "accounts/\(Self.pathSegment(username))/", body: nil, headers: Self.auth(authToken))
        guard answer.status == 204 || answer.status == 200 || answer.status == 404 else { throw answer.failure() }
    }

    // MARK: Devices and tokens

    /// Registers (or re-registers: idempotent) a Web Push device: the W3C PushSubscription JSON.
    public func registerWebPushDevice(
        endpoint: String, keys: WebPushSubscriberKeys, name: String? = nil, authToken: String
    ) async throws(PushClientError) -> GatewayDevice {
        var keyObject = JSONObject()
        keyObject["p256dh"] = .string(keys.p256dhBase64URL)
        keyObject["auth"] = .string(keys.authBase64URL)
        var body = JSONObject()
        body["endpoint"] = .string(endpoint)
        body["keys"] = .object(keyObject)
        if let name { body["name"] = .string(name) }
        let answer = try await http.send(.POST, apiBase + "device/webpush/", body: body, headers: Self.auth(authToken))
        guard answer.status == 201 || answer.status == 200 else { throw answer.failure() }
        let object = try answer.object()
        guard let id = object["id"]?.stringValue ?? object["id"]?.integerValue.map({ "\($0)" }), !id.isEmpty, id.utf8.count <= 128 else {
            throw .invalidResponse(status: answer.status, reason: "the device answer lacks 'id'")
        }
        return GatewayDevice(id: id, active: object["active"]?.boolValue ?? true)
    }

    /// Creates `count` (1...20) whitelist tokens for a Web Push device, in one batch request.
    public func createTokens(count: Int, webPushDevice device: String, authToken: String) async throws(PushClientError) -> [IssuedPushToken] {
        guard (1...20).contains(count) else { throw .rejected(status: 400, detail: "a token batch has 1...20 tokens") }
        var body = JSONObject()
        body["webpush_device"] = .string(device)
        if count > 1 { body["count"] = .integer(Int64(count)) }
        let answer = try await http.send(.POST, apiBase + "tokens/", body: body, headers: Self.auth(authToken))
        guard answer.status == 201 || answer.status == 200 else { throw answer.failure() }
        let object = try answer.object()
        let items: [JSONObject]
        if let results = object["results"]?.arrayValue {
            items = results.compactMap(\.objectValue)
        } else {
            items = [object]
        }
        var tokens: [IssuedPushToken] = []
        for item in items {
            guard let hex = item["token"]?.stringValue, let token = try? WhitelistToken(hex: hex) else {
                throw .invalidResponse(status: answer.status, reason: "a token is not 40 hex characters")
            }
            let expires = item["date_expires"]?.stringValue.flatMap(PushTokens.parseTime)
            tokens.append(IssuedPushToken(token: token, expiresAt: expires))
        }
        guard tokens.count == count else {
            throw .invalidResponse(status: answer.status, reason: "asked for \(count) tokens, got \(tokens.count)")
        }
        return tokens
    }

    /// Revokes a token (DELETE). True when the gateway deleted it, false when it did not know it (404): either way it knocks no more.
    @discardableResult
    public func revokeToken(_ token: WhitelistToken, authToken: String) async throws(PushClientError) -> Bool {
        let answer = try await http.send(.DELETE, apiBase + "tokens/\(token.hex)/", body: nil, headers: Self.auth(authToken))
        switch answer.status {
        case 204, 200: return true
        case 404: return false
        default: throw answer.failure()
        }
    }

    // MARK: Knocking

    /// Knocks: POSTs a contact's token to their gateway's `messages/` (no auth). Nothing but the token and
    /// optional `data` travels; never message text.
    ///
    /// - Throws: ``PushClientError/tokenRejected`` on 404 (drop the token, try the next),
    ///   ``PushClientError/rateLimited(retryAfterSeconds:)`` on 429.
    public func knock(token: WhitelistToken, data: String? = nil, priority: KnockPriority = .high) async throws(PushClientError) {
        var body = JSONObject()
        body["token"] = .string(token.hex)
        if let data { body["data"] = .string(data) }
        body["priority"] = .string(priority.rawValue)
        let answer = try await http.send(.POST, apiBase + "messages/", body: body)
        switch answer.status {
        case 202, 200, 201: return
        case 404: throw .tokenRejected
        default: throw answer.failure()
        }
    }

    // MARK: Helpers

    static func auth(_ token: String) -> [(String, String)] { [("Authorization", "Token " + token)] }

    static func pathSegment(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.isASCII && (CharacterSetLite.isUnreserved($0)) }.map(Character.init))
    }
}

/// ASCII classes for URL path segments.
enum CharacterSetLite {
    static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }
}
