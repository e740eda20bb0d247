/// Timings and bounds of the cross-node fan-out through PostgreSQL (``PostgresSignalBus``).
public struct PostgresFanoutOptions: Sendable {
    /// How often a node writes its heartbeat and sweeps dead nodes.
    public var heartbeatInterval: Duration = .seconds(5)
    /// A node whose heartbeat is older than this (server clock) is dead: its memberships are
    /// removed and their peers get `peer_disconnected`.
    public var deadNodeAfterSeconds = 30
    /// Events waiting to be sent to other nodes; beyond it events are dropped (and counted).
    public var queueCapacity = 8_192
    /// Events nobody took (their node died) are deleted from `kith_signal_spool` after this many seconds.
    public var spoolLifetimeSeconds = 120
    /// On graceful shutdown, how long the sender may still spend sending the events it queued.
    public var shutdownFlushTimeout: Duration = .seconds(3)

    /// The documented defaults.
    public init() {}
}
