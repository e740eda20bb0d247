/// Timings and bounds of the cross-node fan-out through PostgreSQL (``PostgresSignalBus``).
public struct PostgresFanoutOptions: Sendable {
    /// How often a node writes its heartbeat and sweeps dead nodes.
    public var heartbeatInterval: Duration = .seconds(5)
    /// A node whose heartbeat is older than this (server clock) is dead: its memberships are
    /// removed and their peers get `peer_disconnected`.
    public var deadNodeAfterSeconds = 30
    /// Events waiting to be sent to other nodes; beyond it events are dropped (and counted).
    public var queueCapacity = 8_192
    /// Encoded events up to this many bytes travel in the `NOTIFY` payload itself (PostgreSQL's
    /// limit is 8,000 bytes); larger ones (a big SDP, a relay frame above ~5.9 KiB) are spooled
    /// in `kith_signal_spool` and the notification carries the row's id.
    public var inlinePayloadBytes = 7_900
    /// Spooled events nobody fetched (their node died) are deleted after this many seconds.
    public var spoolLifetimeSeconds = 120

    /// The documented defaults.
    public init() {}
}
