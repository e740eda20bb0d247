import Crypto
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithServer
import Testing

@Suite("Push service /push/: RFC 8030 push resources, restricted subscriptions (RFC 8292), 404/410/413/429")
struct PushServiceTests {
    static func headers(ttl: String? = "60", urgency: String? = nil, topic: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentEncoding: "aes128gcm"]
        if let ttl { fields[HTTPField.Name("TTL")!] = ttl }
        if let urgency { fields[HTTPField.Name("Urgency")!] = urgency }
        if let topic { fields[HTTPField.Name("Topic")!] = topic }
        return fields
    }

    /// The capability path of an endpoint.
    static func path(_ endpoint: String) -> String { String(endpoint.dropFirst(PushTestServer.publicURL.count)) }

    @Test("a subscription: 201, Location with the secret, Link with the endpoint under the public URL; distinct 192-bit values, stored as digests")
    func subscribe() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.push(.post, "/push/subscriptions")
            #expect(answer.status == 201)
            let endpoint = try #require(answer.string("endpoint"))
            let secret = try #require(answer.string("subscription"))
            #expect(endpoint.hasPrefix(PushTestServer.publicURL + "/push/"))
            let capability = String(endpoint.dropFirst((PushTestServer.publicURL + "/push/").count))
            #expect(capability.count == 32 && secret.count == 32 && capability != secret)
            #expect(answer.headers[.location] == "/push/subscriptions/\(secret)")
            #expect(answer.headers[HTTPField.Name("Link")!] == "<\(endpoint)>; rel=\"urn:ietf:params:push\"")
            let record = try #require(try await store.subscription(secretDigest: Array(SHA256.hash(data: Array(secret.utf8)))))
            #expect(record.capabilityDigest == Array(SHA256.hash(data: Array(capability.utf8))))
            #expect(try await client.push(.post, "/push/subscriptions", #"{"vapid_key":"AAAA"}"#).status == 400)
        }
    }

    @Test("the service holds at most maximumSubscriptions live subscriptions: the next is 503 and nothing is stored; a deletion frees a slot")
    func subscriptionsAreBoundedInTotal() async throws {
        var limits = PushTestServer.limits()
        limits.maximumSubscriptions = 2
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let first = try #require(try await client.push(.post, "/push/subscriptions").string("subscription"))
            #expect(try await client.push(.post, "/push/subscriptions").status == 201)
            let full = try await client.push(.post, "/push/subscriptions")
            #expect(full.status == 503 && full.headers[.retryAfter] == "3600")
            #expect(try await store.subscriptionCount() == 2)
            #expect(try await client.push(.delete, "/push/subscriptions/\(first)").status == 204)
            #expect(try await client.push(.post, "/push/subscriptions").status == 201)
        }
    }

    @Test("a push message: 201 with Location and the TTL kept (shortened to the maximum); stored for the subscriber")
    func pushMessage() async throws {
        var limits = PushTestServer.limits()
        limits.maximumTimeToLiveSeconds = 3_600
        let (server, store, clock) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = Self.path(try #require(subscription.string("endpoint")))
            let answer = try await client.pushBytes(path, [1, 2, 3], headers: Self.headers(ttl: "99999999999999999999", urgency: "high", topic: "abc_-1"))
            #expect(answer.status == 201)
            #expect(answer.headers[HTTPField.Name("TTL")!] == "3600")
            #expect(answer.headers[.location]?.hasPrefix("/push/messages/") == true)
            let secret = try #require(subscription.string("subscription"))
            let record = try #require(try await store.subscription(secretDigest: Array(SHA256.hash(data: Array(secret.utf8)))))
            let stored = try await store.pendingMessages(subscriptionID: record.id, now: clock.nowMilliseconds(), limit: 10)
            #expect(stored.map(\.body) == [[1, 2, 3]])
            #expect(stored.first?.urgency == "high" && stored.first?.topic == "abc_-1")
        }
    }

    @Test("header and body refusals: missing or bad TTL, bad Urgency or Topic, another Content-Encoding, empty (400); over 4096 bytes (413); nothing stored")
    func refusals() async throws {
        let (server, store, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = Self.path(try #require(subscription.string("endpoint")))
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(ttl: nil)).status == 400)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(ttl: "-1")).status == 400)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(ttl: "1.5")).status == 400)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(urgency: "urgent")).status == 400)
            var two = Self.headers()
            two.append(HTTPField(name: HTTPField.Name("Urgency")!, value: "low"))
            two.append(HTTPField(name: HTTPField.Name("Urgency")!, value: "high"))
            #expect(try await client.pushBytes(path, [1], headers: two).status == 400)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(topic: String(repeating: "a", count: 33))).status == 400)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers(topic: "a.b")).status == 400)
            var gzip = Self.headers()
            gzip[.contentEncoding] = "gzip"
            #expect(try await client.pushBytes(path, [1], headers: gzip).status == 400)
            #expect(try await client.pushBytes(path, [], headers: Self.headers()).status == 400)
            #expect(try await client.pushBytes(path, [UInt8](repeating: 7, count: 4_097), headers: Self.headers()).status == 413)
            #expect(try await client.pushBytes(path, [UInt8](repeating: 7, count: 4_096), headers: Self.headers()).status == 201)
            let secret = try #require(subscription.string("subscription"))
            let record = try #require(try await store.subscription(secretDigest: Array(SHA256.hash(data: Array(secret.utf8)))))
            #expect(try await store.pendingMessages(subscriptionID: record.id, now: clock.nowMilliseconds(), limit: 10).count == 1)
        }
    }

    @Test("unknown capability 404; after DELETE the capability answers 410 and the secret 404")
    func unknownAndGone() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client in
            #expect(try await client.pushBytes("/push/" + String(repeating: "A", count: 32), [1], headers: Self.headers()).status == 404)
            #expect(try await client.pushBytes("/push/short", [1], headers: Self.headers()).status == 404)
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = Self.path(try #require(subscription.string("endpoint")))
            let secret = try #require(subscription.string("subscription"))
            #expect(try await client.push(.delete, "/push/subscriptions/\(secret)").status == 204)
            #expect(try await client.push(.delete, "/push/subscriptions/\(secret)").status == 404)
            #expect(try await client.pushBytes(path, [1], headers: Self.headers()).status == 410)
        }
    }

    @Test("429 with Retry-After past the per-subscription rate; other subscriptions unaffected")
    func rateLimited() async throws {
        var limits = PushTestServer.limits()
        limits.messagesPerCapability = RateLimitRule(burst: 2, perSecond: 1)
        let (server, _, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let first = Self.path(try #require(try await client.push(.post, "/push/subscriptions").string("endpoint")))
            let second = Self.path(try #require(try await client.push(.post, "/push/subscriptions").string("endpoint")))
            #expect(try await client.pushBytes(first, [1], headers: Self.headers()).status == 201)
            #expect(try await client.pushBytes(first, [1], headers: Self.headers()).status == 201)
            let limited = try await client.pushBytes(first, [1], headers: Self.headers())
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] == "1")
            #expect(try await client.pushBytes(second, [1], headers: Self.headers()).status == 201)
        }
    }

    @Test("subscriptions are rate-limited per source")
    func subscriptionRate() async throws {
        var limits = PushTestServer.limits()
        limits.subscriptionsPerSource = RateLimitRule(burst: 1, perSecond: 1.0 / 60)
        let (server, _, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            #expect(try await client.push(.post, "/push/subscriptions").status == 201)
            let limited = try await client.push(.post, "/push/subscriptions")
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] == "60")
        }
    }

    @Test("a restricted subscription: 401 without VAPID, 403 with another key, a wrong audience or an expired JWT, 201 with the right one")
    func vapid() async throws {
        let (server, store, clock) = try PushTestServer.make()
        let signer = VAPIDSigner(signingKey: P256.Signing.PrivateKey())
        let stranger = VAPIDSigner(signingKey: P256.Signing.PrivateKey())
        let key = Base64URL.encode(signer.signingKey.publicKey.x963Representation)
        try await server.makeApplication().test(.router) { client in
            let subscription = try await client.push(.post, "/push/subscriptions", #"{"vapid_key":"\#(key)"}"#)
            #expect(subscription.status == 201)
            let endpoint = try #require(subscription.string("endpoint"))
            let path = Self.path(endpoint)
            let now = clock.nowMilliseconds() / 1_000
            let missing = try await client.pushBytes(path, [1], headers: Self.headers())
            #expect(missing.status == 401)
            #expect(missing.headers[.wwwAuthenticate] == "vapid")
            func with(_ authorization: VAPIDAuthorization) -> HTTPFields {
                var fields = Self.headers()
                fields[.authorization] = authorization.headerValue
                return fields
            }
            #expect(try await client.pushBytes(path, [1], headers: with(try stranger.authorization(pushResource: endpoint, subject: "mailto:x@y", now: now))).status == 403)
            let wrongAudience = try signer.authorization(pushResource: "https://elsewhere.example/push/x", subject: nil, now: now)
            #expect(try await client.pushBytes(path, [1], headers: with(wrongAudience)).status == 403)
            let stale = try signer.authorization(pushResource: endpoint, subject: nil, now: now - 7_200, lifetime: 3_600)
            #expect(try await client.pushBytes(path, [1], headers: with(stale)).status == 403)
            let secret = try #require(subscription.string("subscription"))
            let record = try #require(try await store.subscription(secretDigest: Array(SHA256.hash(data: Array(secret.utf8)))))
            #expect(try await store.pendingMessages(subscriptionID: record.id, now: clock.nowMilliseconds(), limit: 10).isEmpty)
            let good = try signer.authorization(pushResource: endpoint, subject: "mailto:app@example.org", now: now)
            #expect(try await client.pushBytes(path, [1], headers: with(good)).status == 201)
        }
    }

    @Test("a Topic replaces the stored message of that topic; past the bound the oldest is dropped")
    func topicAndBound() async throws {
        var limits = PushTestServer.limits()
        limits.messagesPerSubscription = 3
        let (server, store, clock) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = Self.path(try #require(subscription.string("endpoint")))
            _ = try await client.pushBytes(path, [1], headers: Self.headers(topic: "t"))
            _ = try await client.pushBytes(path, [2], headers: Self.headers(topic: "t"))
            let secret = try #require(subscription.string("subscription"))
            let record = try #require(try await store.subscription(secretDigest: Array(SHA256.hash(data: Array(secret.utf8)))))
            #expect(try await store.pendingMessages(subscriptionID: record.id, now: clock.nowMilliseconds(), limit: 10).map(\.body) == [[2]])
            for byte: UInt8 in 3...5 {
                clock.advance(seconds: 0.001)
                _ = try await client.pushBytes(path, [byte], headers: Self.headers())
            }
            #expect(try await store.pendingMessages(subscriptionID: record.id, now: clock.nowMilliseconds(), limit: 10).map(\.body) == [[3], [4], [5]])
        }
    }
}
