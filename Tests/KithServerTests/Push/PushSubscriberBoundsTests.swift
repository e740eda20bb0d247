import Hummingbird
import HummingbirdTesting
@testable import KithServer
import KithTestSupport
import Testing

/// Bounds on subscriber WebSockets: per subscription and per source, and one queue entry per message.
@Suite("Push subscriber bounds: connections per subscription and per source; a message offered again is queued once")
struct PushSubscriberBoundsTests {
    @Test("one subscription holds at most subscribersPerSubscription sockets, one source at most subscribersPerSource")
    func connectionsPerSubscriptionAndSource() async throws {
        var limits = PushTestServer.limits()
        limits.subscribersPerSubscription = 2
        limits.subscribersPerSource = 3
        let (server, _, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let first = try #require(try await client.push(.post, "/push/subscriptions").string("subscription"))
            let second = try #require(try await client.push(.post, "/push/subscriptions").string("subscription"))
            var open: [PushTestSubscriber] = []
            for _ in 0..<2 { open.append(try await PushTestSubscriber.connect(port: port, secret: first)) }
            // A client is connected before the server has counted it: wait for the count, or the third
            // socket could take a slot first and one of the two would be the one refused.
            try await Self.waitFor(2, server)
            let third = try await PushTestSubscriber.connect(port: port, secret: first)
            #expect(await eventually { third.isClosed })
            open.append(try await PushTestSubscriber.connect(port: port, secret: second))
            try await Self.waitFor(3, server)
            let overSource = try await PushTestSubscriber.connect(port: port, secret: second)
            #expect(await eventually { overSource.isClosed })
            #expect(server.pushSubscriberCount == 3)
            for subscriber in open { await subscriber.close() }
        }
    }

    /// Waits (bounded generously) until the server counts `count` subscribers.
    static func waitFor(_ count: Int, _ server: RendezvousServer) async throws {
        try #require(await eventually { server.pushSubscriberCount == count })
    }

    @Test("a message offered again (a notification, then a poll) is queued once, so copies cannot overflow the queue")
    func repeatedOffersAreQueuedOnce() {
        let (stream, continuation) = AsyncStream.makeStream(of: PushMessageRecord.self, bufferingPolicy: .bufferingOldest(2))
        let connection = PushSubscriberConnection(subscriptionID: "s", source: "127.0.0.1", outbox: continuation)
        let message = PushMessageRecord(id: "m1", subscriptionID: "s", body: [1], urgency: "normal", topic: nil, createdAt: 1, expiresAt: 2)
        for _ in 0..<5 { connection.offer(message) }
        #expect(!connection.overflowed)
        continuation.finish()
        _ = stream
    }
}
