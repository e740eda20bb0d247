import Hummingbird
import HummingbirdTesting
import KithRendezvous
import NIOCore
import Testing

@testable import KithServer

@Suite("Rate limits against guessing join codes")
struct RateLimitTests {
    @Test("accepts and checks are limited per source, with Retry-After, and recover with time")
    func perSource() async throws {
        var limits = TestServer.limits()
        limits.guessesPerSource = RateLimitRule(burst: 5, perSecond: 0.5)
        let (server, _, clock) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            for code in 100_000..<100_003 { #expect(try await client.accept(String(code), "dev-b").status == 404) }
            #expect(try await client.check("200000", "dev-a").status == 404)
            #expect(try await client.check("200001", "dev-a").status == 404)
            let limited = try await client.accept("300000", "dev-b")
            #expect(limited.status == 429)
            #expect(limited.text == #"{"error":"rate_limited"}"#)
            #expect(limited.headers[.retryAfter] == "2")
            // A create needs a guess too (its answer tells a live code from a free one), even for a free code.
            #expect(try await client.create("400000", "dev-a").status == 429)
            clock.advance(seconds: 2)
            // A create that finds its code free gives its guess back.
            #expect(try await client.create("400000", "dev-a").status == 201)
            #expect(try await client.accept("400000", "dev-b").status == 200)
            #expect(try await client.accept("400001", "dev-b").status == 429)
        }
    }

    @Test("accepts of one code are limited across sources; other codes are unaffected")
    func perCode() async throws {
        var limits = TestServer.limits()
        limits.acceptsPerCode = RateLimitRule(burst: 3, perSecond: 0.01)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            _ = try await client.create("123456", "dev-a")
            for guess in 0..<3 { #expect(try await client.accept("123456", "thief-\(guess)").status != 429) }
            #expect(try await client.accept("123456", "dev-b").status == 429)
            _ = try await client.create("654321", "dev-c")
            #expect(try await client.accept("654321", "dev-d").status == 200)
        }
    }

    @Test("every endpoint counts against the per-source request limit")
    func requestsPerSource() async throws {
        var limits = TestServer.limits()
        limits.requestsPerSource = RateLimitRule(burst: 3, perSecond: 0.001)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            for _ in 0..<3 { #expect(try await client.call(.get, "/api/rooms?roomid=x").status == 404) }
            #expect(try await client.call(.get, "/api/rooms?roomid=x").status == 429)
            #expect(try await client.call(.post, "/api/user/purge", #"{"deviceId":"a"}"#).status == 429)
        }
    }

    @Test("the limiter's table stays bounded however many sources appear")
    func boundedTable() {
        let limiter = RateLimiter(rule: RateLimitRule(burst: 2, perSecond: 0.001), maximumKeys: 100)
        for index in 0..<10_000 { _ = limiter.take("source-\(index)", now: Int64(index)) }
        #expect(limiter.trackedKeys <= 100)
        #expect(limiter.take("fresh", now: 20_000) == .allowed)
    }
}

@Suite("Rate-limit source keys")
struct RateLimitSourceKeyTests {
    private static func key(_ address: String) throws -> String {
        RendezvousRequestContext.sourceKey(of: try SocketAddress(ipAddress: address, port: 7460))
    }

    @Test("IPv4-mapped peers of a dual-stack listener are keyed by their IPv4 address, not by the shared all-zero /64")
    func mappedIPv4() throws {
        #expect(try Self.key("::ffff:192.0.2.1") != Self.key("::ffff:198.51.100.7"))
        #expect(try Self.key("::ffff:192.0.2.1") == Self.key("192.0.2.1"))
        #expect(try Self.key("::ffff:192.0.2.1") == "v4:192.0.2.1")
    }

    @Test("native IPv6 peers still share their /64; other prefixes do not")
    func ipv6Prefix() throws {
        #expect(try Self.key("2001:db8:1:2::1") == Self.key("2001:db8:1:2:ffff::9"))
        #expect(try Self.key("2001:db8:1:2::1") != Self.key("2001:db8:1:3::1"))
        #expect(try Self.key("::1") != Self.key("::ffff:0.0.0.1"))
    }

    @Test("two mapped IPv4 peers do not share a bucket")
    func separateBuckets() throws {
        let limiter = RateLimiter(rule: RateLimitRule(burst: 1, perSecond: 0.001), maximumKeys: 100)
        #expect(limiter.take(try Self.key("::ffff:192.0.2.1"), now: 0) == .allowed)
        #expect(limiter.take(try Self.key("::ffff:192.0.2.1"), now: 0) != .allowed)
        #expect(limiter.take(try Self.key("::ffff:198.51.100.7"), now: 0) == .allowed)
    }
}
