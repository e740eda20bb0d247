import AsyncHTTPClient
import Crypto
import Foundation
import KithCanonical
import KithPushDelivery
import Testing

@Suite("APNs provider against a loopback HTTP/2 over TLS mock")
struct APNsProviderTests {
    static let keyID = "ABC123DEFG"
    static let teamID = "TEAM123456"
    static let bundleID = "org.kith.Example"
    static let deviceToken = String(repeating: "ab", count: 32)

    let key = P256.Signing.PrivateKey()

    func makeProvider(_ server: MockPushServer, _ client: HTTPClient, clock: ManualClock) throws -> APNsProvider {
        let configuration = try APNsProviderConfiguration(
            signingKey: key, keyID: Self.keyID, teamID: Self.teamID, bundleID: Self.bundleID,
            host: "127.0.0.1", port: server.port, clock: clock.pushClock
        )
        return APNsProvider(configuration: configuration, httpClient: client)
    }

    func knock(_ priority: PushPriority, topic: String? = "contact-7", payload: [UInt8] = Fixtures.knock, token: String = deviceToken) -> PushNotification {
        PushNotification(target: .apns(deviceToken: token), payload: payload, priority: priority, timeToLiveSeconds: 3_600, topic: topic)
    }

    /// Checks the provider token the way APNs does: ES256 over header.claims, kid, iss, iat.
    func checkProviderToken(_ request: RecordedRequest, issuedAt: Int64) throws -> String {
        let authorization = try #require(request.header("authorization"))
        #expect(authorization.hasPrefix("bearer "))
        let jwt = String(authorization.dropFirst("bearer ".count))
        let decoded = try #require(DecodedJWT(jwt))
        #expect(decoded.header == ["alg": .string("ES256"), "kid": .string(Self.keyID)])
        #expect(decoded.claims == ["iss": .string(Self.teamID), "iat": .integer(issuedAt)])
        #expect(decoded.verifiesES256(key.publicKey))
        #expect(!decoded.verifiesES256(P256.Signing.PrivateKey().publicKey))
        return jwt
    }

    @Test("a low-priority knock is a background push over HTTP/2 with the documented headers, token and body")
    func backgroundKnock() async throws {
        let clock = ManualClock()
        try await withMock(.http2TLS, respond: { _ in .status(200, headers: [("apns-id", "x")]) }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            let request = try #require(server.requests.first)
            #expect(request.httpMajorVersion == 2)
            #expect(request.method == "POST")
            #expect(request.uri == "/3/device/\(Self.deviceToken)")
            #expect(request.header("apns-push-type") == "background")
            #expect(request.header("apns-priority") == "5")
            #expect(request.header("apns-topic") == Self.bundleID)
            #expect(request.header("apns-expiration") == String(clock.now + 3_600))
            #expect(request.header("apns-collapse-id") == "contact-7")
            let apnsID = try #require(request.header("apns-id"))
            #expect(UUID(uuidString: apnsID) != nil)
            _ = try checkProviderToken(request, issuedAt: clock.now)
            #expect(String(decoding: request.body, as: UTF8.self)
                == #"{"aps":{"content-available":1},"message":{"data":"hi","token":"0123456789abcdef0123456789abcdef01234567"}}"#)
        }
    }

    @Test("a high-priority knock is one alert push with fixed generic text and mutable-content, its message in aps.alert as ChatSecure reads it")
    func alertKnock() async throws {
        let clock = ManualClock()
        try await withMock(.http2TLS, respond: { _ in .status(200) }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            #expect(await provider.deliver(knock(.high, topic: nil)) == .delivered)
            let request = try #require(server.requests.first)
            #expect(request.header("apns-push-type") == "alert")
            #expect(request.header("apns-priority") == "10")
            #expect(request.header("apns-collapse-id") == nil)
            let body = try #require(try CanonicalJSON.parse(request.body).objectValue)
            let aps = try #require(body["aps"]?.objectValue)
            let alert = try #require(aps["alert"]?.objectValue)
            #expect(alert["body"] == .string("New activity"))
            // Where ChatSecure-Push-Server puts it and the ChatSecure-Push SDK reads it: aps.alert.message.{data,token}.
            #expect(alert["message"]?.objectValue?["token"] == .string(Fixtures.knockToken))
            #expect(alert["message"]?.objectValue?["data"] == .string("hi"))
            #expect(aps["content-available"] == .integer(1))
            #expect(aps["mutable-content"] == .integer(1))
            #expect(body.keys.sorted() == ["aps"])
            #expect(request.body.count <= 4_096)
        }
    }

    @Test("the provider token is reused for 50 minutes, then replaced; TTL 0 sends apns-expiration 0")
    func tokenReuseAndRefresh() async throws {
        let clock = ManualClock()
        try await withMock(.http2TLS, respond: { _ in .status(200) }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            let start = clock.now
            #expect(await provider.deliver(knock(.low)) == .delivered)
            clock.advance(by: 20 * 60)
            var once = knock(.low)
            once.timeToLiveSeconds = 0
            #expect(await provider.deliver(once) == .delivered)
            #expect(await provider.providerTokensMinted == 1)
            clock.advance(by: 30 * 60)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            #expect(await provider.providerTokensMinted == 2)

            let requests = server.requests
            let first = try checkProviderToken(requests[0], issuedAt: start)
            let second = try checkProviderToken(requests[1], issuedAt: start)
            let third = try checkProviderToken(requests[2], issuedAt: start + 50 * 60)
            #expect(first == second)
            #expect(third != first)
            #expect(requests[1].header("apns-expiration") == "0")

            var forever = knock(.low)
            forever.timeToLiveSeconds = Int.max
            #expect(await provider.deliver(forever) == .delivered)
            #expect(server.requests.last?.header("apns-expiration") == String(clock.now + 2_592_000))
        }
    }

    @Test("APNs reasons map to outcomes", arguments: [
        (410, "Unregistered", PushDeliveryOutcome.targetGone(reason: "APNs 410 Unregistered")),
        (400, "BadDeviceToken", .targetGone(reason: "APNs 400 BadDeviceToken")),
        (400, "DeviceTokenNotForTopic", .targetGone(reason: "APNs 400 DeviceTokenNotForTopic")),
        (400, "BadPriority", .rejected(reason: "APNs 400 BadPriority")),
        (400, "PayloadEmpty", .rejected(reason: "APNs 400 PayloadEmpty")),
        (404, "BadPath", .rejected(reason: "APNs 404 BadPath")),
        (405, "MethodNotAllowed", .rejected(reason: "APNs 405 MethodNotAllowed")),
        (413, "PayloadTooLarge", .rejected(reason: "APNs 413 PayloadTooLarge")),
        (429, "TooManyRequests", .retryable(reason: "APNs 429 TooManyRequests", retryAfterSeconds: nil)),
        (429, "TooManyProviderTokenUpdates", .retryable(reason: "APNs 429 TooManyProviderTokenUpdates", retryAfterSeconds: nil)),
        (500, "InternalServerError", .retryable(reason: "APNs 500 InternalServerError", retryAfterSeconds: nil)),
        (503, "ServiceUnavailable", .retryable(reason: "APNs 503 ServiceUnavailable", retryAfterSeconds: nil)),
        (503, "<b>not a code</b>", .retryable(reason: "APNs 503", retryAfterSeconds: nil)),
    ] as [(Int, String, PushDeliveryOutcome)])
    func reasonMapping(status: Int, reason: String, expected: PushDeliveryOutcome) async throws {
        let json = #"{"reason":"\#(reason)","timestamp":1700000000000}"#
        try await withMock(.http2TLS, respond: { _ in .status(status, json: json) }) { server, client in
            let provider = try makeProvider(server, client, clock: ManualClock())
            #expect(await provider.deliver(knock(.low)) == expected)
        }
    }

    @Test("a rejected provider token older than 20 minutes is replaced and the push is retryable; a fresh one rejected is final")
    func providerTokenRejection() async throws {
        let clock = ManualClock()
        try await withMock(.http2TLS, respond: { request in
            request.header("apns-collapse-id") == "refuse" ? .status(403, json: #"{"reason":"ExpiredProviderToken"}"#) : .status(200)
        }) { server, client in
            let provider = try makeProvider(server, client, clock: clock)
            #expect(await provider.deliver(knock(.low)) == .delivered)
            clock.advance(by: 30 * 60)
            #expect(await provider.deliver(knock(.low, topic: "refuse"))
                == .retryable(reason: "APNs 403 ExpiredProviderToken; provider token replaced", retryAfterSeconds: nil))
            #expect(await provider.deliver(knock(.low)) == .delivered)
            #expect(await provider.providerTokensMinted == 2)
            #expect(await provider.deliver(knock(.low, topic: "refuse"))
                == .rejected(reason: "APNs 403 ExpiredProviderToken for a fresh token: check the key, key id and team id"))
            #expect(await provider.providerTokensMinted == 2)
        }
    }

    @Test("bad device tokens, oversized payloads, bad knocks and long collapse ids never reach APNs")
    func rejectedBeforeRequest() async throws {
        try await withMock(.http2TLS, respond: { _ in .status(200) }) { server, client in
            let provider = try makeProvider(server, client, clock: ManualClock())
            for token in ["", "xyz", String(repeating: "a", count: 63), String(repeating: "g", count: 64), String(repeating: "ab", count: 101)] {
                let outcome = await provider.deliver(knock(.low, token: token))
                #expect(outcome == .targetGone(reason: "device token is not an even-length hex string of 16…200 characters"))
            }
            let bigData = String(repeating: "x", count: 4_000)
            let big = Array(#"{"message":{"data":"\#(bigData)","token":"\#(Fixtures.knockToken)"}}"#.utf8)
            // A knock body is read strictly (KnockBody): data past 100 characters is no knock at all.
            #expect(await provider.deliver(knock(.high, payload: big)) == .rejected(reason: "knock body is not a JSON object with a message object"))
            // The payload bound still holds when a long configured alert text makes it large.
            var wordy = try APNsProviderConfiguration(
                signingKey: key, keyID: Self.keyID, teamID: Self.teamID, bundleID: Self.bundleID,
                host: "127.0.0.1", port: server.port, clock: ManualClock().pushClock)
            wordy.alertText = String(repeating: "x", count: 4_000)
            let outcome = await APNsProvider(configuration: wordy, httpClient: client).deliver(knock(.high))
            guard case .rejected(let reason) = outcome else { Issue.record("expected a rejection, got \(outcome)"); return }
            #expect(reason.hasPrefix("APNs payload is ") && reason.hasSuffix("bytes; the limit is 4096"))
            #expect(await provider.deliver(knock(.low, payload: Array("not json".utf8)))
                == .rejected(reason: "knock body is not a JSON object with a message object"))
            #expect(await provider.deliver(knock(.low, payload: Array(#"{"message":"text"}"#.utf8)))
                == .rejected(reason: "knock body is not a JSON object with a message object"))
            #expect(await provider.deliver(knock(.low, topic: String(repeating: "c", count: 65)))
                == .rejected(reason: "collapse id (topic) must be 1…64 bytes"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("configuration rejects bad ids, bundle ids, refresh intervals and keys")
    func configurationErrors() throws {
        let key = P256.Signing.PrivateKey()
        func make(keyID: String = keyIDValue, teamID: String = teamIDValue, bundleID: String = bundleIDValue, refresh: Int64 = 3_000) throws(PushConfigurationError) {
            _ = try APNsProviderConfiguration(signingKey: key, keyID: keyID, teamID: teamID, bundleID: bundleID, tokenRefreshSeconds: refresh)
        }
        #expect(throws: Never.self) { try make() }
        #expect(throws: PushConfigurationError.self) { try make(keyID: "abc") }
        #expect(throws: PushConfigurationError.self) { try make(keyID: "abc123defg") }
        #expect(throws: PushConfigurationError.self) { try make(teamID: "TEAM12345678") }
        #expect(throws: PushConfigurationError.self) { try make(bundleID: "") }
        #expect(throws: PushConfigurationError.self) { try make(bundleID: "org.kith/../x") }
        #expect(throws: PushConfigurationError.self) { try make(refresh: 60) }
        #expect(throws: PushConfigurationError.self) { try make(refresh: 3_600) }
        #expect(throws: PushConfigurationError.self) { try APNsProviderConfiguration.signingKey(fromPEM: "garbage") }
        #expect(throws: PushConfigurationError.self) {
            try APNsProviderConfiguration.signingKey(fromPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        }
        let loaded = try APNsProviderConfiguration.signingKey(fromPEM: key.pemRepresentation)
        #expect(loaded.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        let missing = "/nonexistent/AuthKey_ABC123DEFG.p8"
        #expect(throws: PushConfigurationError.self) {
            try APNsProviderConfiguration.load(keyFile: missing, keyID: keyIDValue, teamID: teamIDValue, bundleID: bundleIDValue)
        }
    }
}

private let keyIDValue = APNsProviderTests.keyID
private let teamIDValue = APNsProviderTests.teamID
private let bundleIDValue = APNsProviderTests.bundleID

