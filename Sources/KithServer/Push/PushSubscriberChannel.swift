import HummingbirdWebSocket
import KithCanonical
import KithRendezvous
import Logging

/// Serves one subscriber WebSocket (`GET /push/subscriptions/<secret>/ws`): writes the stored
/// messages oldest first, then live ones, as text frames
/// `{"type":"message","id":…,"body":<base64url>,"urgency":…,"topic"?:…}`; deletes a message when the
/// client answers `{"type":"ack","id":…}`. Unacknowledged messages are written again on the next
/// connection; expired ones never are.
struct PushSubscriberChannel: Sendable {
    let store: any PushStore
    let clock: any ServerClock
    let limits: PushServerLimits
    let hub: PushSubscriberHub
    let metrics: PushMetrics

    /// Largest frame a subscriber may send (an ack is about 60 bytes).
    static let maximumInboundBytes = 1_024
    /// Acks a connection may send: 200 at once, 100 a second after; excess ones are ignored.
    static let acksPerConnection = RateLimitRule(burst: 200, perSecond: 100)

    func serve(_ subscription: PushSubscriptionRecord, source: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: PushMessageRecord.self, bufferingPolicy: .bufferingOldest(limits.subscriberOutboxCapacity))
        let connection = PushSubscriberConnection(subscriptionID: subscription.id, source: source, outbox: continuation)
        guard hub.add(connection, limits: limits) else {
            try await outbound.refuse(1013, reason: "Try again later")
            return
        }
        metrics.subscribersConnected(hub.count)
        defer {
            hub.remove(connection)
            metrics.subscribersConnected(hub.count)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await write(stream, connection: connection, to: outbound) }
            group.addTask { try await read(inbound, connection: connection) }
            if let interval = limits.subscriberPollInterval {
                group.addTask { try await poll(connection, every: interval) }
            }
            // Whichever ends first ends the connection.
            _ = try await group.next()
            connection.finish()
            group.cancelAll()
        }
        if connection.overflowed { try? await outbound.close(.unknown(1008), reason: "Subscriber too slow") }
    }

    private func write(_ stream: AsyncStream<PushMessageRecord>, connection: PushSubscriberConnection, to outbound: WebSocketOutboundWriter) async throws {
        let stored = try await store.pendingMessages(subscriptionID: connection.subscriptionID, now: clock.nowMilliseconds(), limit: limits.messagesPerSubscription)
        for message in stored where connection.claim(message.id) {
            try await send(message, to: outbound)
        }
        // Queued messages were claimed when offered.
        for await message in stream where message.expiresAt > clock.nowMilliseconds() || message.expiresAt == message.createdAt {
            try await send(message, to: outbound)
        }
    }

    private func send(_ message: PushMessageRecord, to outbound: WebSocketOutboundWriter) async throws {
        var frame: JSONObject = [
            "type": "message", "id": .string(message.id), "body": .string(Base64URL.encode(message.body)), "urgency": .string(message.urgency),
        ]
        if let topic = message.topic { frame["topic"] = .string(topic) }
        try await outbound.write(.text(RendezvousJSON.text(frame)))
        metrics.messageDelivered()
    }

    private func read(_ inbound: WebSocketInboundStream, connection: PushSubscriberConnection) async throws {
        var bucket = TokenBucket(rule: Self.acksPerConnection, now: clock.nowMilliseconds())
        let limits = JSONLimits(maxBytes: Self.maximumInboundBytes, maxDepth: 1, maxStringBytes: 256, maxContainerElements: 8, maxTotalValues: 16)
        for try await message in inbound.messages(maxSize: Self.maximumInboundBytes) {
            guard case .text(let text) = message else { continue }
            guard case .allowed = bucket.take(rule: Self.acksPerConnection, now: clock.nowMilliseconds()) else { continue }
            guard let object = try? CanonicalJSON.parse(Array(text.utf8), limits: limits).objectValue,
                  object["type"]?.stringValue == "ack", let id = object["id"]?.stringValue, id.utf8.count <= 64 else { continue }
            if try await store.acknowledge(subscriptionID: connection.subscriptionID, messageID: id) {
                metrics.messageAcknowledged()
            }
        }
    }

    /// With a store shared by several nodes: picks up messages stored through another node.
    private func poll(_ connection: PushSubscriberConnection, every interval: Duration) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            let stored = try await store.pendingMessages(
                subscriptionID: connection.subscriptionID, now: clock.nowMilliseconds(), limit: limits.messagesPerSubscription)
            for message in stored { connection.offer(message) }
        }
    }
}
