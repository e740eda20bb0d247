import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithPushDelivery
import KithServer
import Testing

@Suite("Push knocks: POST /api/v1/messages/, 202 and delivery to every active device, 404 for unknown, expired or revoked tokens")
struct PushKnockTests {
    @Test("a knock answers 202 with the echo and hands ChatSecure's token echo, never more, to the provider of each active device")
    func knockDelivers() async throws {
        let apns = RecordingProvider(kind: .apns)
        let fcm = RecordingProvider(kind: .fcm)
        let (server, _, _) = try PushTestServer.make(providers: [apns, fcm])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let phone = try await client.apnsDevice(token: alice, registration: "aaaa")
            _ = try await client.push(.post, "/api/v1/device/gcm/", #"{"registration_id":"fcm-1"}"#, token: alice)
            _ = try await client.push(.post, "/api/v1/device/gcm/", #"{"registration_id":"fcm-off","active":false}"#, token: alice)
            let token = try await client.whitelistToken(token: alice, device: phone)
            let answer = try await client.knock(token, data: "hi", priority: "high")
            #expect(answer.status == 202)
            #expect(answer.object == ["token": .string(token), "data": "hi", "priority": "high"])
            let plain = try await client.knock(token)
            #expect(plain.object == ["token": .string(token), "data": .null, "priority": "low"])
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 2)
            #expect(fcm.notifications.map(\.target) == [.fcm(registrationToken: "fcm-1"), .fcm(registrationToken: "fcm-1")])
            let first = try #require(apns.notifications.first)
            #expect(first.target == .apns(deviceToken: "aaaa"))
            #expect(String(decoding: first.payload, as: UTF8.self) == #"{"message":{"data":"hi","token":"\#(token)"}}"#)
            #expect(first.priority == .high)
            #expect(String(decoding: apns.notifications[1].payload, as: UTF8.self) == #"{"message":{"data":null,"token":"\#(token)"}}"#)
            #expect(server.pushMetrics?.count(.accepted) == 2)
            #expect(server.pushMetrics?.count(.delivered) == 4)
        }
    }

    @Test("unknown, malformed, expired and revoked tokens answer 404 with an empty body and deliver nothing")
    func notFound() async throws {
        let apns = RecordingProvider(kind: .apns)
        let (server, _, clock) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let device = try await client.apnsDevice(token: alice)
            let unknown = try await client.knock(WhitelistToken.generate().hex)
            #expect(unknown.status == 404 && unknown.text.isEmpty)
            #expect(try await client.knock("not-a-token").status == 404)
            let revoked = try await client.whitelistToken(token: alice, device: device)
            _ = try await client.push(.delete, "/api/v1/tokens/\(revoked)/", token: alice)
            #expect(try await client.knock(revoked).status == 404)
            let expiring = try await client.whitelistToken(token: alice, device: device)
            clock.advance(seconds: 30 * 86_400 - 1)
            #expect(try await client.knock(expiring).status == 202)
            clock.advance(seconds: 1)
            let expired = try await client.knock(expiring)
            #expect(expired.status == 404 && expired.text.isEmpty)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 1)
            #expect(server.pushMetrics?.count(.notFound) == 4)
        }
    }

    @Test("validation: no token, data over 100 characters or not a string, an unknown priority, a body over 8 KiB; nothing delivered")
    func validation() async throws {
        let apns = RecordingProvider(kind: .apns)
        let (server, _, _) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            #expect(try await client.push(.post, "/api/v1/messages/", "{}").text == #"{"token":["This field is required."]}"#)
            #expect(try await client.knock(token, data: String(repeating: "d", count: 101)).status == 400)
            #expect(try await client.push(.post, "/api/v1/messages/", #"{"token":"\#(token)","data":{"a":1}}"#).status == 400)
            #expect(try await client.knock(token, priority: "urgent").status == 400)
            let big = try await client.push(.post, "/api/v1/messages/", #"{"token":"\#(token)","x":"\#(String(repeating: "x", count: 8_200))"}"#)
            #expect(big.status == 413)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.isEmpty)
        }
    }

    @Test("rate limits: per token and per source answer 429 with Retry-After, and deliver nothing more")
    func rateLimits() async throws {
        let apns = RecordingProvider(kind: .apns)
        var limits = PushTestServer.limits()
        limits.knocksPerToken = RateLimitRule(burst: 2, perSecond: 1.0 / 60)
        let (server, _, clock) = try PushTestServer.make(providers: [apns], limits: limits)
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let device = try await client.apnsDevice(token: alice)
            let token = try await client.whitelistToken(token: alice, device: device)
            let other = try await client.whitelistToken(token: alice, device: device)
            #expect(try await client.knock(token).status == 202)
            #expect(try await client.knock(token).status == 202)
            let limited = try await client.knock(token)
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] == "60")
            #expect(try await client.knock(other).status == 202)
            clock.advance(seconds: 60)
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 4)
        }
        var sourceLimits = PushTestServer.limits()
        sourceLimits.knocksPerSource = RateLimitRule(burst: 1, perSecond: 1.0 / 30)
        let (limitedServer, _, _) = try PushTestServer.make(providers: [apns], limits: sourceLimits)
        try await limitedServer.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            #expect(try await client.knock(token).status == 202)
            let limited = try await client.knock(WhitelistToken.generate().hex)
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] == "30")
        }
    }

    @Test("account creation and login are rate-limited per source before any password is hashed")
    func accountRate() async throws {
        var limits = PushTestServer.limits()
        limits.accountsPerSource = RateLimitRule(burst: 2, perSecond: 1.0 / 60)
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            _ = try await client.pushAccount("a1")
            _ = try await client.pushAccount("a2")
            let third = try await client.push(.post, "/api/v1/accounts/", #"{"username":"a3","password":"x"}"#)
            #expect(third.status == 429)
            #expect(third.headers[.retryAfter] != nil)
            #expect(try await store.account(username: "a3") == nil)
        }
    }
}
