import AsyncHTTPClient
import Crypto
import NIOCore
import KithCanonical
import KithPush
import KithPushDelivery
import Testing

@Suite("Web Push provider against a loopback HTTP/1.1 push service")
struct WebPushProviderTests {
    let receiver = WebPushReceiverKeys.generate()
    let vapidKey = P256.Signing.PrivateKey()

    func makeProvider(_ client: HTTPClient, clock: ManualClock, allowPrivate: Bool = true, timeoutMilliseconds: Int64 = 10_000) throws -> WebPushProvider {
        let configuration = try WebPushProviderConfiguration(
            signer: VAPIDSigner(signingKey: vapidKey), subject: "mailto:ops@example.org",
            endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: allowPrivate),
            http: PushHTTPSettings(requestTimeout: .milliseconds(timeoutMilliseconds)),
            clock: clock.pushClock
        )
        return WebPushProvider(configuration: configuration, httpClient: client)
    }

    func notification(_ endpoint: String, priority: PushPriority = .low, topic: String? = nil, payload: [UInt8] = Fixtures.knock) -> PushNotification {
        PushNotification(target: .webPush(endpoint: endpoint, keys: receiver.subscriberKeys), payload: payload,
                         priority: priority, timeToLiveSeconds: 600, topic: topic)
    }

    @Test("a knock is posted with TTL, Urgency, Topic, aes128gcm and a valid VAPID JWT, and decrypts to the knock body")
    func deliversEncryptedSignedPush() async throws {
        let clock = ManualClock()
        try await withMock(.http1, respond: { _ in .status(201, headers: [("location", "/push/messages/1")]) }) { server, client in
            let provider = try makeProvider(client, clock: clock)
            let endpoint = "\(server.baseURL)/push/capability-abc"
            #expect(await provider.deliver(notification(endpoint, priority: .high, topic: "knock-1")) == .delivered)
            #expect(await provider.deliver(notification(endpoint, priority: .low)) == .delivered)

            let requests = server.requests
            #expect(requests.count == 2)
            let first = try #require(requests.first)
            #expect(first.method == "POST")
            #expect(first.uri == "/push/capability-abc")
            #expect(first.httpMajorVersion == 1)
            #expect(first.header("TTL") == "600")
            #expect(first.header("Urgency") == "high")
            #expect(requests[1].header("Urgency") == "normal")
            #expect(first.header("Topic") == "knock-1")
            #expect(requests[1].header("Topic") == nil)
            #expect(first.header("Content-Encoding") == "aes128gcm")

            let verifier = VAPIDVerifier(audience: server.baseURL)
            let claims = try verifier.verify(headerValue: try #require(first.header("Authorization")), now: clock.now)
            #expect(claims.audience == "http://127.0.0.1:\(server.port)")
            #expect(claims.subject == "mailto:ops@example.org")
            #expect(claims.expiration > clock.now && claims.expiration <= clock.now + 86_400)
            let authorization = try VAPIDAuthorization.parse(try #require(first.header("Authorization")))
            #expect(authorization.publicKey == Array(vapidKey.publicKey.x963Representation))

            #expect(try WebPushDecryption.decrypt(first.body, with: receiver) == Fixtures.knock)
            #expect(try WebPushDecryption.decrypt(requests[1].body, with: receiver) == Fixtures.knock)
            #expect(first.body != requests[1].body, "fresh salt and sender key per message")
        }
    }

    @Test("the VAPID JWT is cached per origin and replaced before it expires")
    func vapidTokenReuseAndRefresh() async throws {
        let clock = ManualClock()
        try await withMock(.http1, respond: { _ in .status(201) }) { server, client in
            let provider = try makeProvider(client, clock: clock)
            let endpoint = "\(server.baseURL)/push/a"
            _ = await provider.deliver(notification(endpoint))
            clock.advance(by: 3_600)
            _ = await provider.deliver(notification("\(server.baseURL)/push/b"))
            // 12 h lifetime, 1 h margin: at +11 h 1 s the token has less than an hour left.
            clock.advance(by: 10 * 3_600 + 1)
            _ = await provider.deliver(notification(endpoint))
            let headers = server.requests.compactMap { $0.header("Authorization") }
            #expect(headers.count == 3)
            #expect(headers[0] == headers[1], "same origin, one token")
            #expect(headers[2] != headers[0], "refreshed before expiry")
            let verifier = VAPIDVerifier(audience: server.baseURL)
            #expect(throws: Never.self) { try verifier.verify(headerValue: headers[2], now: clock.now) }
        }
    }

    @Test("push service statuses map to outcomes", arguments: [
        (201, PushDeliveryOutcome.delivered),
        (202, .delivered),
        (404, .targetGone(reason: "push service answered 404: subscription expired or removed")),
        (410, .targetGone(reason: "push service answered 410: subscription expired or removed")),
        (400, .rejected(reason: "push service answered 400")),
        (401, .rejected(reason: "push service answered 401")),
        (403, .rejected(reason: "push service answered 403")),
        (413, .rejected(reason: "push service answered 413")),
        (429, .retryable(reason: "push service answered 429", retryAfterSeconds: 30)),
        (500, .retryable(reason: "push service answered 500", retryAfterSeconds: 30)),
        (503, .retryable(reason: "push service answered 503", retryAfterSeconds: 30)),
    ] as [(Int, PushDeliveryOutcome)])
    func statusMapping(status: Int, expected: PushDeliveryOutcome) async throws {
        try await withMock(.http1, respond: { _ in .status(status, headers: [("retry-after", "30")]) }) { server, client in
            let provider = try makeProvider(client, clock: ManualClock())
            #expect(await provider.deliver(notification("\(server.baseURL)/push/x")) == expected)
        }
    }

    @Test("a redirect is not followed")
    func redirectNotFollowed() async throws {
        try await withMock(.http1, respond: { request in
            request.uri == "/push/x" ? .status(307, headers: [("location", "/elsewhere")]) : .status(201)
        }) { server, client in
            let provider = try makeProvider(client, clock: ManualClock())
            let outcome = await provider.deliver(notification("\(server.baseURL)/push/x"))
            #expect(outcome == .rejected(reason: "push service answered 307 (redirects are never followed)"))
            #expect(server.requests.map(\.uri) == ["/push/x"])
        }
    }

    @Test("private and loopback endpoints are refused by default, before any request")
    func ssrfRefusedByDefault() async throws {
        try await withMock(.http1, respond: { _ in .status(201) }) { server, client in
            let provider = try makeProvider(client, clock: ManualClock(), allowPrivate: false)
            let outcome = await provider.deliver(notification("\(server.baseURL)/push/x"))
            guard case let .rejected(reason) = outcome else { Issue.record("expected rejected, got \(outcome)"); return }
            #expect(reason.contains("127.0.0.1"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("an oversized payload or a bad topic is rejected before any request")
    func rejectedBeforeRequest() async throws {
        try await withMock(.http1, respond: { _ in .status(201) }) { server, client in
            let provider = try makeProvider(client, clock: ManualClock())
            let endpoint = "\(server.baseURL)/push/x"
            let big = [UInt8](repeating: 0x61, count: PushLimits.maxPlaintextBytes + 1)
            #expect(await provider.deliver(notification(endpoint, payload: big))
                == .rejected(reason: "payload is 3994 bytes; Web Push carries at most 3993"))
            for topic in ["", String(repeating: "a", count: 33), "has space", "dot.ted", "plus+"] {
                let outcome = await provider.deliver(notification(endpoint, topic: topic))
                #expect(outcome == .rejected(reason: "topic is not 1…32 base64url characters (RFC 8030 §5.4)"))
            }
            let wrongKind = PushNotification(target: .fcm(registrationToken: "t"), payload: Fixtures.knock, priority: .low, timeToLiveSeconds: 60)
            #expect(await provider.deliver(wrongKind) == .rejected(reason: "not a Web Push target"))
            #expect(server.requests.isEmpty)
            // The largest payload still goes out.
            let largest = [UInt8](repeating: 0x61, count: PushLimits.maxPlaintextBytes)
            #expect(await provider.deliver(notification(endpoint, topic: String(repeating: "A", count: 32), payload: largest)) == .delivered)
            #expect(server.requests.first?.body.count == PushLimits.maxPushMessageBytes)
            var forever = notification(endpoint)
            forever.timeToLiveSeconds = Int.max
            #expect(await provider.deliver(forever) == .delivered)
            #expect(server.requests.last?.header("TTL") == "2147483647")
            forever.timeToLiveSeconds = -1
            #expect(await provider.deliver(forever) == .rejected(reason: "negative TTL"))
            #expect(server.requests.count == 2)
        }
    }

    @Test("a silent push service times out as retryable; a closed port is retryable")
    func transportFailuresAreRetryable() async throws {
        try await withMock(.http1, respond: { _ in .silence }) { server, client in
            let provider = try makeProvider(client, clock: ManualClock(), timeoutMilliseconds: 300)
            let outcome = await provider.deliver(notification("\(server.baseURL)/push/x"))
            #expect(outcome == .retryable(reason: "push service unreachable: timed out", retryAfterSeconds: nil))
            // Port 9 (discard) is closed on the test machines' loopback.
            let refused = await provider.deliver(notification("http://127.0.0.1:9/push/x"))
            guard case .retryable = refused else { Issue.record("expected retryable, got \(refused)"); return }
        }
    }
}

