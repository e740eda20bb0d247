import Crypto
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithServer
import KithTestSupport
import Testing

@Suite("Push subscriber WebSocket: stored then live messages, acks, redelivery, TTL expiry")
struct PushSubscriberTests {
    static func port(_ client: some TestClientProtocol) throws -> Int { try #require(client.port) }

    @Test("stored messages arrive oldest first, then live ones; an ack deletes; unacked ones come again on reconnect")
    func deliveryAckRedelivery() async throws {
        let (server, _, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.live) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = PushServiceTests.path(try #require(subscription.string("endpoint")))
            let secret = try #require(subscription.string("subscription"))
            _ = try await client.pushBytes(path, [1], headers: PushServiceTests.headers())
            clock.advance(seconds: 0.001)
            _ = try await client.pushBytes(path, [2], headers: PushServiceTests.headers(urgency: "low", topic: "t1"))
            let subscriber = try await PushTestSubscriber.connect(port: try Self.port(client), secret: secret)
            let first = try await subscriber.next()
            let second = try await subscriber.next()
            #expect(first["type"] == "message" && first["body"] == .string(Base64URL.encode([1])) && first["urgency"] == "normal")
            #expect(second["body"] == .string(Base64URL.encode([2])) && second["urgency"] == "low" && second["topic"] == "t1")
            let live = try await client.pushBytes(path, [3], headers: PushServiceTests.headers())
            let third = try await subscriber.next()
            #expect(third["body"] == .string(Base64URL.encode([3])))
            #expect(live.headers[.location] == "/push/messages/" + (third["id"]?.stringValue ?? "?"))
            try await subscriber.ack(try #require(first["id"]?.stringValue))
            try await subscriber.ack(try #require(third["id"]?.stringValue))
            #expect(try await subscriber.pending(after: 0.3).isEmpty)
            await subscriber.close()
            // The server notices the close on its own connection task: wait for it (bounded).
            #expect(await eventually { server.pushSubscriberCount == 0 })
            let again = try await PushTestSubscriber.connect(port: try Self.port(client), secret: secret)
            let redelivered = try await again.next()
            #expect(redelivered["id"] == second["id"])
            #expect(try await again.pending(after: 0.3).isEmpty)
            await again.close()
        }
    }

    @Test("expired messages are never delivered; TTL 0 reaches only a connected subscriber")
    func expiry() async throws {
        let (server, _, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.live) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = PushServiceTests.path(try #require(subscription.string("endpoint")))
            let secret = try #require(subscription.string("subscription"))
            _ = try await client.pushBytes(path, [1], headers: PushServiceTests.headers(ttl: "10"))
            _ = try await client.pushBytes(path, [2], headers: PushServiceTests.headers(ttl: "0"))
            clock.advance(seconds: 10)
            let subscriber = try await PushTestSubscriber.connect(port: try Self.port(client), secret: secret)
            #expect(try await subscriber.pending(after: 0.3).isEmpty)
            _ = try await client.pushBytes(path, [3], headers: PushServiceTests.headers(ttl: "0"))
            #expect(try await subscriber.next()["body"] == .string(Base64URL.encode([3])))
            await subscriber.close()
        }
    }

    @Test("an unknown secret gets no WebSocket; deleting the subscription closes its WebSocket")
    func unknownAndDeleted() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.live) { client in
            let stranger = try await PushTestSubscriber.connect(port: try Self.port(client), secret: String(repeating: "A", count: 32))
            #expect(stranger.isClosed)
            let subscription = try await client.push(.post, "/push/subscriptions")
            let secret = try #require(subscription.string("subscription"))
            let subscriber = try await PushTestSubscriber.connect(port: try Self.port(client), secret: secret)
            #expect(!subscriber.isClosed)
            #expect(try await client.push(.delete, "/push/subscriptions/\(secret)").status == 204)
            #expect(await eventually { subscriber.isClosed })
        }
    }

    @Test("the sweep deletes expired messages and tokens")
    func sweep() async throws {
        let (server, store, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client in
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = PushServiceTests.path(try #require(subscription.string("endpoint")))
            _ = try await client.pushBytes(path, [1], headers: PushServiceTests.headers(ttl: "5"))
            let alice = try await client.pushAccount()
            _ = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            clock.advance(seconds: 31 * 86_400)
            let outcome = try await store.sweepPush(now: clock.nowMilliseconds(), tombstonesBefore: 0)
            #expect(outcome.messagesDeleted == 1 && outcome.tokensDeleted == 1)
        }
    }
}
