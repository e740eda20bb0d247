import Metrics
import Prometheus
import Synchronization

/// Push counters in the server's Prometheus registry (`GET /metrics`); counts only, never tokens,
/// capabilities, endpoints or device ids. Names:
///
/// - `kith_push_knocks_total{outcome="accepted"|"not_found"|"rate_limited"|"invalid"}`: knocks (`POST /api/v1/messages/`).
/// - `kith_push_deliveries_total{outcome="delivered"|"target_gone"|"retried"|"failed"|"rejected"|"undeliverable"|"dropped"}`:
///   provider attempts and their outcomes (`failed`: retries exhausted; `undeliverable`: no provider for the device's kind;
///   `dropped`: the dispatch queue was full).
/// - `kith_push_messages_stored_total`, `kith_push_messages_delivered_total`, `kith_push_messages_acknowledged_total`,
///   `kith_push_messages_dropped_total` (replaced by topic, or over the per-subscription bound): the push service.
/// - `kith_push_subscribers_connected` (gauge): subscriber WebSockets open on this node.
public final class PushMetrics: Sendable {
    /// Knock outcomes.
    public enum KnockOutcome: String, Sendable, CaseIterable {
        /// 202.
        case accepted
        /// 404 (unknown, expired or revoked token).
        case notFound = "not_found"
        /// 429.
        case rateLimited = "rate_limited"
        /// 400 or 413.
        case invalid
    }

    /// Delivery outcomes.
    public enum DeliveryOutcome: String, Sendable, CaseIterable {
        /// The provider accepted the notification.
        case delivered
        /// The target is gone (the device is deactivated).
        case targetGone = "target_gone"
        /// A retryable failure, tried again later.
        case retried
        /// A retryable failure after the last attempt.
        case failed
        /// The provider refused the notification for good.
        case rejected
        /// No provider for the device's kind.
        case undeliverable
        /// The dispatch queue was full.
        case dropped
    }

    private let knocks: [KnockOutcome: Metrics.Counter]
    private let deliveries: [DeliveryOutcome: Metrics.Counter]
    private let stored: Metrics.Counter
    private let delivered: Metrics.Counter
    private let acknowledged: Metrics.Counter
    private let droppedMessages: Metrics.Counter
    private let subscribers: Metrics.Gauge
    private let counts = Mutex<[String: Int]>([:])

    /// Counters in `registry`, every series present from the start (at zero).
    public init(registry: PrometheusCollectorRegistry) {
        let factory = PrometheusMetricsFactory(registry: registry)
        knocks = Dictionary(uniqueKeysWithValues: KnockOutcome.allCases.map { outcome in
            (outcome, Metrics.Counter(label: "kith_push_knocks_total", dimensions: [("outcome", outcome.rawValue)], factory: factory))
        })
        deliveries = Dictionary(uniqueKeysWithValues: DeliveryOutcome.allCases.map { outcome in
            (outcome, Metrics.Counter(label: "kith_push_deliveries_total", dimensions: [("outcome", outcome.rawValue)], factory: factory))
        })
        stored = Metrics.Counter(label: "kith_push_messages_stored_total", factory: factory)
        delivered = Metrics.Counter(label: "kith_push_messages_delivered_total", factory: factory)
        acknowledged = Metrics.Counter(label: "kith_push_messages_acknowledged_total", factory: factory)
        droppedMessages = Metrics.Counter(label: "kith_push_messages_dropped_total", factory: factory)
        subscribers = Metrics.Gauge(label: "kith_push_subscribers_connected", factory: factory)
    }

    func knock(_ outcome: KnockOutcome) { knocks[outcome]?.increment(); bump("knock." + outcome.rawValue) }
    func delivery(_ outcome: DeliveryOutcome) { deliveries[outcome]?.increment(); bump("delivery." + outcome.rawValue) }
    func messageStored() { stored.increment(); bump("message.stored") }
    func messageDelivered() { delivered.increment(); bump("message.delivered") }
    func messageAcknowledged() { acknowledged.increment(); bump("message.acknowledged") }
    func messagesDropped(_ count: Int) {
        guard count > 0 else { return }
        droppedMessages.increment(by: Int64(count))
        bump("message.dropped", by: count)
    }
    func subscribersConnected(_ count: Int) { subscribers.record(count) }

    /// How many knocks ended with `outcome` (for tests and the benchmark).
    public func count(_ outcome: KnockOutcome) -> Int { counts.withLock { $0["knock." + outcome.rawValue] ?? 0 } }
    /// How many notifications ended with `outcome` (for tests and the benchmark).
    public func count(_ outcome: DeliveryOutcome) -> Int { counts.withLock { $0["delivery." + outcome.rawValue] ?? 0 } }
    /// Push messages stored by the push service.
    public var messagesStoredCount: Int { counts.withLock { $0["message.stored"] ?? 0 } }
    /// Push messages written to subscribers.
    public var messagesDeliveredCount: Int { counts.withLock { $0["message.delivered"] ?? 0 } }

    private func bump(_ key: String, by amount: Int = 1) { counts.withLock { $0[key, default: 0] += amount } }
}
