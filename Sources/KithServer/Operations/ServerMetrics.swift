import Metrics
import Prometheus

/// The server's Prometheus metrics (`GET /metrics`), recorded through swift-metrics into a
/// registry of this server's own, so several servers in one process never share counters.
///
/// Metrics carry counts only, never room ids, codes or device ids. Names:
///
/// - `kith_connections_open` (gauge): signaling connections open on this node.
/// - `kith_connections_total`: signaling connections accepted.
/// - `kith_rooms_created_total` / `kith_rooms_accepted_total`: pairings created and accepted over REST.
/// - `kith_wrong_guesses_total`: join-code guesses that missed (an accept or check answered `404` or
///   `409`, a create whose code was in use), the spending of the node-wide guess budget.
/// - `kith_signaling_messages_relayed_total`: signaling messages relayed from one member to the other.
/// - `kith_relay_bytes_total`: bytes forwarded by the blind relay (``recordRelayedBytes(_:)``).
/// - `kith_rejections_total{surface="rest"|"signaling"|"connection", reason=…}`: refusals by
///   ``RejectionReason`` (`connection`: TCP connections over their source's share, late requests).
public final class ServerMetrics: Sendable {
    /// The registry `GET /metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let connectionsOpen: Metrics.Gauge
    private let connectionsAccepted: Metrics.Counter
    private let roomsCreated: Metrics.Counter
    private let roomsAccepted: Metrics.Counter
    private let wrongGuesses: Metrics.Counter
    private let signalsRelayed: Metrics.Counter
    private let relayBytes: Metrics.Counter
    private let restRejections: [RejectionReason: Metrics.Counter]
    private let signalingRejections: [RejectionReason: Metrics.Counter]
    private let connectionRejections: [RejectionReason: Metrics.Counter]
    private let presencePushes: [PresencePushOutcome: Metrics.Counter]

    /// Metrics in a fresh registry, every series present from the start (at zero).
    public init() {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        self.registry = registry
        connectionsOpen = Metrics.Gauge(label: "kith_connections_open", factory: factory)
        connectionsAccepted = Metrics.Counter(label: "kith_connections_total", factory: factory)
        roomsCreated = Metrics.Counter(label: "kith_rooms_created_total", factory: factory)
        roomsAccepted = Metrics.Counter(label: "kith_rooms_accepted_total", factory: factory)
        wrongGuesses = Metrics.Counter(label: "kith_wrong_guesses_total", factory: factory)
        signalsRelayed = Metrics.Counter(label: "kith_signaling_messages_relayed_total", factory: factory)
        relayBytes = Metrics.Counter(label: "kith_relay_bytes_total", factory: factory)
        func rejections(_ surface: String, _ reasons: [RejectionReason]) -> [RejectionReason: Metrics.Counter] {
            Dictionary(uniqueKeysWithValues: reasons.map { reason in
                (reason, Metrics.Counter(label: "kith_rejections_total", dimensions: [("surface", surface), ("reason", reason.rawValue)], factory: factory))
            })
        }
        restRejections = rejections("rest", [.rateLimit, .bodyTooLarge, .badRequest, .conflict, .notFound, .gone, .otherClientError, .storeError])
        signalingRejections = rejections("signaling", [.rateLimit, .badMessage, .frameRejected, .serverFull, .sourceFull, .slowConsumer, .storeError])
        connectionRejections = rejections("connection", [.sourceFull, .requestTimeout])
        presencePushes = Dictionary(uniqueKeysWithValues: PresencePushOutcome.allCases.map { outcome in
            (outcome, Metrics.Counter(label: "kith_presence_pushes_total", dimensions: [("outcome", outcome.rawValue)], factory: factory))
        })
    }

    /// Counts `count` bytes forwarded by the blind relay (`kith_relay_bytes_total`).
    public func recordRelayedBytes(_ count: Int) {
        guard count > 0 else { return }
        relayBytes.increment(by: Int64(count))
    }

    /// Sets the number of open signaling connections.
    func recordOpenConnections(_ count: Int) { connectionsOpen.record(count) }

    /// Counts one accepted signaling connection.
    func connectionAccepted() { connectionsAccepted.increment() }

    /// Counts one pairing created over REST.
    func roomCreated() { roomsCreated.increment() }

    /// Counts one pairing accepted over REST.
    func roomAccepted() { roomsAccepted.increment() }

    /// Counts a join-code guess that missed (`kith_wrong_guesses_total`).
    func wrongGuess() { wrongGuesses.increment() }

    /// Counts one relayed signaling message.
    func signalRelayed() { signalsRelayed.increment() }

    /// Counts one presence push attempt by outcome (`kith_presence_pushes_total{outcome}`).
    func presencePush(_ outcome: PresencePushOutcome) { presencePushes[outcome]?.increment() }

    /// Counts one REST refusal.
    func restRejected(_ reason: RejectionReason) { restRejections[reason]?.increment() }

    /// Counts one signaling refusal.
    func signalingRejected(_ reason: RejectionReason) { signalingRejections[reason]?.increment() }

    /// Counts one refused or timed-out TCP connection.
    func connectionRejected(_ reason: RejectionReason) { connectionRejections[reason]?.increment() }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
