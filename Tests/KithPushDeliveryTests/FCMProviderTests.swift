import AsyncHTTPClient
import CryptoExtras
import Foundation
import KithCanonical
import KithPushDelivery
import Synchronization
import Testing

@Suite("FCM HTTP v1 provider against a loopback HTTP/2 over TLS mock (send API and OAuth token endpoint)")
struct FCMProviderTests {
    static let project = "kith-test"
    static let email = "push@kith-test.iam.gserviceaccount.com"
    static let registrationToken = "fcm-token:APA91bExample_-123"

    /// The mock's OAuth endpoint hands out numbered tokens; the send API answers `send`.
    final class MockFCM: Sendable {
        let issued = Mutex(0)
        let send: @Sendable (RecordedRequest) -> MockResponse
        let tokenResponse: @Sendable (Int) -> MockResponse

        init(tokenResponse: (@Sendable (Int) -> MockResponse)? = nil, send: @escaping @Sendable (RecordedRequest) -> MockResponse) {
            self.send = send
            if let tokenResponse {
                self.tokenResponse = tokenResponse
            } else {
                self.tokenResponse = { n in .status(200, json: #"{"access_token":"ya29.token-\#(n)","expires_in":3599,"token_type":"Bearer"}"#) }
            }
        }

        func respond(_ request: RecordedRequest) -> MockResponse {
            if request.uri == "/token" {
                let n = issued.withLock { value in value += 1; return value }
                return tokenResponse(n)
            }
            return send(request)
        }
    }

    func makeProvider(_ server: MockPushServer, _ client: HTTPClient, clock: ManualClock) throws -> FCMProvider {
        let account = try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: "\(server.baseURL)/token"))
        let configuration = try FCMProviderConfiguration(serviceAccount: account, baseURL: server.baseURL, clock: clock.pushClock)
        return FCMProvider(configuration: configuration, httpClient: client)
    }

    func serviceAccountJSON(tokenURI: String, key: String? = nil, email: String? = FCMProviderTests.email) -> String {
        var members: [(String, JSONValue)] = [
            ("type", .string("service_account")), ("project_id", .string(Self.project)),
            ("private_key_id", .string("abc")), ("private_key", .string(key ?? Fixtures.rsaKey.pkcs8PEMRepresentation)),
            ("token_uri", .string(tokenURI)),
        ]
        if let email { members.append(("client_email", .string(email))) }
        let object = (try? JSONObject(members: members)) ?? JSONObject()
        return String(decoding: CanonicalJSON.serialize(object), as: UTF8.self)
    }

    func knock(_ priority: PushPriority, ttl: Int = 600) -> PushNotification {
        PushNotification(target: .fcm(registrationToken: Self.registrationToken), payload: Fixtures.knock, priority: priority, timeToLiveSeconds: ttl)
    }

    @Test("a knock is sent with an OAuth token from a verified RS256 JWT-bearer grant and the documented body")
    func sendsMessage() async throws {
        let clock = ManualClock()
        let mock = MockFCM { _ in .status(200, json: #"{"name":"projects/kith-test/messages/1"}"#) }
        try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            #expect(await provider.deliver(knock(.high)) == .delivered)
            #expect(await provider.deliver(knock(.low, ttl: 99_999_999)) == .delivered)
            #expect(await provider.accessTokensFetched == 1)

            let requests = server.requests
            #expect(requests.map(\.uri) == ["/token", "/v1/projects/kith-test/messages:send", "/v1/projects/kith-test/messages:send"])
            #expect(requests.allSatisfy { $0.httpMajorVersion == 2 && $0.method == "POST" })

            let tokenRequest = requests[0]
            #expect(tokenRequest.header("content-type") == "application/x-www-form-urlencoded")
            let form = String(decoding: tokenRequest.body, as: UTF8.self)
            let prefix = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
            #expect(form.hasPrefix(prefix))
            let assertion = try #require(DecodedJWT(String(form.dropFirst(prefix.count))))
            #expect(assertion.header == ["alg": .string("RS256"), "typ": .string("JWT")])
            #expect(assertion.verifiesRS256(Fixtures.rsaKey.publicKey))
            #expect(assertion.claims["iss"] == .string(Self.email))
            #expect(assertion.claims["scope"] == .string("https://www.googleapis.com/auth/firebase.messaging"))
            #expect(assertion.claims["aud"] == .string("\(server.baseURL)/token"))
            #expect(assertion.claims["iat"] == .integer(clock.now))
            #expect(assertion.claims["exp"] == .integer(clock.now + 3_600))

            let send = requests[1]
            #expect(send.header("authorization") == "Bearer ya29.token-1")
            let body = try #require(try CanonicalJSON.parse(send.body).objectValue)
            let expected: JSONValue = .object([
                "token": .string(Self.registrationToken),
                "data": .object(["message": .string(Fixtures.knockMessageJSON)]),
                "android": .object(["priority": .string("high"), "ttl": .string("600s")]),
            ])
            #expect(body["message"] == expected)
            let low = try #require(try CanonicalJSON.parse(requests[2].body).objectValue?["message"]?.objectValue?["android"])
            #expect(low == .object(["priority": .string("normal"), "ttl": .string("2419200s")]))
        }
    }

    @Test("the access token is cached until five minutes before it expires")
    func accessTokenRefresh() async throws {
        let clock = ManualClock()
        let mock = MockFCM { _ in .status(200) }
        try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            clock.advance(by: 3_599 - 301)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            #expect(await provider.accessTokensFetched == 1)
            clock.advance(by: 2)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            #expect(await provider.accessTokensFetched == 2)
            let bearers = server.requests.filter { $0.uri != "/token" }.compactMap { $0.header("authorization") }
            #expect(bearers == ["Bearer ya29.token-1", "Bearer ya29.token-1", "Bearer ya29.token-2"])
        }
    }

    static func fcmError(_ code: Int, _ status: String, errorCode: String?) -> String {
        let details = errorCode.map { #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"# } ?? ""
        return #"{"error":{"code":\#(code),"message":"m","status":"\#(status)"\#(details)}}"#
    }

    @Test("FCM error codes map to outcomes", arguments: [
        (404, "NOT_FOUND", "UNREGISTERED", PushDeliveryOutcome.targetGone(reason: "FCM 404 UNREGISTERED")),
        (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", .rejected(reason: "FCM 400 INVALID_ARGUMENT")),
        (403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", .rejected(reason: "FCM 403 SENDER_ID_MISMATCH")),
        (401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR", .rejected(reason: "FCM 401 THIRD_PARTY_AUTH_ERROR")),
        (429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", .retryable(reason: "FCM 429 QUOTA_EXCEEDED", retryAfterSeconds: 12)),
        (503, "UNAVAILABLE", "UNAVAILABLE", .retryable(reason: "FCM 503 UNAVAILABLE", retryAfterSeconds: 12)),
        (500, "INTERNAL", "INTERNAL", .retryable(reason: "FCM 500 INTERNAL", retryAfterSeconds: 12)),
        (400, "INVALID_ARGUMENT", nil, .rejected(reason: "FCM 400 INVALID_ARGUMENT")),
        (404, "NOT_FOUND", nil, .rejected(reason: "FCM 404 NOT_FOUND")),
        (502, "BAD_GATEWAY", nil, .retryable(reason: "FCM 502 BAD_GATEWAY", retryAfterSeconds: 12)),
    ] as [(Int, String, String?, PushDeliveryOutcome)])
    func errorMapping(status: Int, statusName: String, errorCode: String?, expected: PushDeliveryOutcome) async throws {
        let body = Self.fcmError(status, statusName, errorCode: errorCode)
        let mock = MockFCM { _ in .status(status, json: body, headers: [("retry-after", "12")]) }
        try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
            let provider = try makeProvider(server, client, clock: ManualClock())
            #expect(await provider.deliver(knock(.low)) == expected)
        }
    }

    @Test("a bare 401 drops the access token: retryable, and the next delivery fetches a new one")
    func unauthenticatedRefetches() async throws {
        let mock = MockFCM { request in
            request.header("authorization") == "Bearer ya29.token-1"
                ? .status(401, json: Self.fcmError(401, "UNAUTHENTICATED", errorCode: nil)) : .status(200)
        }
        try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
            let provider = try makeProvider(server, client, clock: ManualClock())
            #expect(await provider.deliver(knock(.low))
                == .retryable(reason: "FCM 401: access token refused; a new one will be fetched", retryAfterSeconds: nil))
            #expect(await provider.deliver(knock(.low)) == .delivered)
            #expect(await provider.accessTokensFetched == 2)
        }
    }

    @Test("token endpoint failures: 400 invalid_grant is rejected, 503 retryable, and nothing is sent")
    func tokenEndpointFailures() async throws {
        let cases: [(Int, PushDeliveryOutcome)] = [
            (400, .rejected(reason: "OAuth token endpoint answered 400 invalid_grant: check the service account")),
            (503, .retryable(reason: "OAuth token endpoint answered 503 invalid_grant", retryAfterSeconds: nil)),
        ]
        for (status, expected) in cases {
            let mock = MockFCM(tokenResponse: { _ in .status(status, json: #"{"error":"invalid_grant"}"#) }) { _ in .status(200) }
            try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
                let provider = try makeProvider(server, client, clock: ManualClock())
                #expect(await provider.deliver(knock(.low)) == expected)
                #expect(server.requests.allSatisfy { $0.uri == "/token" })
            }
        }
    }

    @Test("bad registration tokens and knock bodies are rejected before any request")
    func rejectedBeforeRequest() async throws {
        let mock = MockFCM { _ in .status(200) }
        try await withMock(.http2TLS, respond: { mock.respond($0) }) { server, client in
            let provider = try makeProvider(server, client, clock: ManualClock())
            for token in ["", "has space", "quote\"", String(repeating: "a", count: 4_097)] {
                let outcome = await provider.deliver(PushNotification(target: .fcm(registrationToken: token), payload: Fixtures.knock, priority: .low, timeToLiveSeconds: 60))
                #expect(outcome == .rejected(reason: "registration token is empty, too long or has characters outside printable ASCII"))
            }
            let notJSON = PushNotification(target: .fcm(registrationToken: "t"), payload: Array("{".utf8), priority: .low, timeToLiveSeconds: 60)
            #expect(await provider.deliver(notJSON) == .rejected(reason: "knock body is not a JSON object with a message object"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("service-account files with missing fields or bad keys are refused with typed errors")
    func serviceAccountErrors() throws {
        let uri = "https://oauth2.example/token"
        #expect(throws: Never.self) { try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: uri)) }
        #expect(throws: PushConfigurationError.invalidServiceAccount(reason: "client_email is missing or not a string")) {
            try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: uri, email: nil))
        }
        #expect(throws: PushConfigurationError.invalidPrivateKey(what: "service-account private_key", reason: "not an RSA private key PEM of 2048 bits or more")) {
            try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: uri, key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
        }
        #expect(throws: PushConfigurationError.self) { try FCMServiceAccount.parse(json: "[1,2]") }
        #expect(throws: PushConfigurationError.self) { try FCMServiceAccount.parse(json: "not json") }
        #expect(throws: PushConfigurationError.self) { try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: "ftp://x/token")) }
        let overridden = try FCMServiceAccount.parse(json: serviceAccountJSON(tokenURI: uri), tokenURIOverride: "http://127.0.0.1:1/token")
        #expect(overridden.tokenURI == "http://127.0.0.1:1/token")
        #expect(throws: PushConfigurationError.self) {
            try FCMProviderConfiguration(serviceAccount: overridden, baseURL: "https://fcm.googleapis.com/")
        }
        #expect(throws: PushConfigurationError.self) { try FCMProviderConfiguration.load(serviceAccountFile: "/nonexistent/sa.json") }
    }
}
