import Crypto
import KithRendezvous
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Carries ``SignalEvent``s between nodes sharing one PostgreSQL database, durably.
///
/// Each node has its own channel (`kith_` + 40 hex digits of SHA-256 of its node id). An event for
/// a connection on another node is encoded (``SignalEventCodec``) and written to
/// `kith_signal_spool` under that channel, and the same transaction sends `pg_notify` with the
/// row's id as a wake-up; one sender task per node commits its events in order. The receiving
/// node `LISTEN`s on its channel and, on every wake-up and every time its listener (re)connects,
/// takes all of its rows (`DELETE … RETURNING`, oldest first). An event sent while the receiver's
/// listener was reconnecting therefore waits in the table instead of being lost; rows nobody takes
/// (their node died) are deleted after ``PostgresFanoutOptions/spoolLifetimeSeconds``.
///
/// Nodes heartbeat into `kith_nodes`; every heartbeat a node also sweeps: a node silent for
/// ``PostgresFanoutOptions/deadNodeAfterSeconds`` is deleted (by exactly one sweeper), its
/// memberships are left through the store, and their peers get `peer_disconnected`. On graceful
/// shutdown the sender first sends what is queued (up to ``PostgresFanoutOptions/shutdownFlushTimeout``).
public final class PostgresSignalBus: Sendable {
    let store: PostgresRendezvousStore
    let nodeID: String
    let options: PostgresFanoutOptions
    let logger: Logger
    private let outgoing: AsyncStream<(String, String)>.Continuation
    private let outgoingStream: AsyncStream<(String, String)>
    private let local = Mutex<LocalSignalBus?>(nil)
    private let counters = Counters()

    /// Creates the fan-out's tables if absent (`kith_nodes`, `kith_signal_spool`).
    public static func open(
        store: PostgresRendezvousStore, nodeID: String, options: PostgresFanoutOptions = PostgresFanoutOptions(),
        logger: Logger = Logger(label: "kith.serve.fanout")
    ) async throws(RendezvousStoreError) -> PostgresSignalBus {
        try await store.transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7461)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS kith_nodes (node_id TEXT PRIMARY KEY, heartbeat_at BIGINT NOT NULL)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS kith_signal_spool (id BIGSERIAL PRIMARY KEY, created_at BIGINT NOT NULL, payload TEXT NOT NULL)",
                logger: logger)
            // Every event waits here under its node's channel until that node takes it.
            try await connection.query("ALTER TABLE kith_signal_spool ADD COLUMN IF NOT EXISTS channel TEXT", logger: logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS kith_signal_spool_by_channel ON kith_signal_spool (channel, id)", logger: logger)
        }
        return PostgresSignalBus(store: store, nodeID: nodeID, options: options, logger: logger)
    }

    private init(store: PostgresRendezvousStore, nodeID: String, options: PostgresFanoutOptions, logger: Logger) {
        self.store = store
        self.nodeID = nodeID
        self.options = options
        self.logger = logger
        (outgoingStream, outgoing) = AsyncStream.makeStream(of: (String, String).self, bufferingPolicy: .bufferingOldest(options.queueCapacity))
    }

    /// The `LISTEN` channel of `node`.
    static func channel(of node: String) -> String {
        "kith_" + SHA256.hash(data: Array(node.utf8)).prefix(20).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Events sent to other nodes.
    public var eventsSent: Int { counters.sent.load(ordering: .relaxed) }
    /// Events received from other nodes and handed to a local connection.
    public var eventsReceived: Int { counters.received.load(ordering: .relaxed) }
    /// Events dropped: queue full, send failed, or malformed on arrival.
    public var eventsDropped: Int { counters.dropped.load(ordering: .relaxed) }
    /// Memberships removed because their node died.
    public var membershipsSwept: Int { counters.swept.load(ordering: .relaxed) }

    // MARK: Sending

    /// Queues `event` for the connection at `address` on another node.
    func send(_ event: SignalEvent, to address: MemberAddress) {
        let payload = SignalEventCodec.encode(event, to: address.client)
        if case .dropped = outgoing.yield((Self.channel(of: address.node), payload)) {
            counters.dropped.add(1, ordering: .relaxed)
        }
    }

    /// Writes every queued event with its wake-up, in order, until the queue is finished (graceful
    /// shutdown) and empty, or the task is cancelled.
    private func runSender(clock: any ServerClock) async {
        for await (channel, payload) in outgoingStream {
            do throws(RendezvousStoreError) {
                try await store.transaction { [logger] connection in
                    var id: Int64 = 0
                    for try await row in try await connection.query(
                        "INSERT INTO kith_signal_spool (channel, created_at, payload) VALUES (\(channel), \(clock.nowMilliseconds()), \(payload)) RETURNING id",
                        logger: logger
                    ).decode(Int64.self) { id = row }
                    try await connection.query("SELECT pg_notify(\(channel), \(String(id)))", logger: logger)
                }
                counters.sent.add(1, ordering: .relaxed)
            } catch {
                counters.dropped.add(1, ordering: .relaxed)
                logger.error("fan-out: notify failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Stops taking new events; the sender sends what is queued, then ends.
    func finishSending() { outgoing.finish() }

    // MARK: Receiving

    /// Listens on this node's channel; after every (re)connection it first takes the events that
    /// arrived while it was not listening.
    private func runListener() async {
        let channel = Self.channel(of: nodeID)
        var taken = TakenRows()
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        await self.take(channel: channel, recording: &taken)
                        for try await notification in notifications {
                            // A wake-up for a row an earlier take already delivered costs nothing.
                            if let id = Int64(notification.payload), taken.consume(id) { continue }
                            await self.take(channel: channel, recording: &taken)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.error("fan-out: listener failed, reconnecting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Takes every row waiting for `channel`, oldest first, and hands the events to local connections.
    private func take(channel: String, recording taken: inout TakenRows) async {
        let rows: [(Int64, String)]
        do throws(RendezvousStoreError) {
            rows = try await store.transaction { [logger] connection in
                var rows: [(Int64, String)] = []
                for try await row in try await connection.query(
                    "WITH taken AS (DELETE FROM kith_signal_spool WHERE channel = \(channel) RETURNING id, payload) SELECT id, payload FROM taken ORDER BY id",
                    logger: logger
                ).decode((Int64, String).self) { rows.append(row) }
                return rows
            }
        } catch {
            logger.error("fan-out: taking events failed", metadata: ["error": "\(error)"])
            return
        }
        for (id, payload) in rows {
            taken.record(id)
            receive(payload)
        }
    }

    private func receive(_ text: String) {
        do throws(SignalEventCodec.Malformed) {
            let (event, client) = try SignalEventCodec.decode(text)
            counters.received.add(1, ordering: .relaxed)
            local.withLock { $0 }?.deliver(event, to: MemberAddress(node: nodeID, client: client))
        } catch {
            counters.dropped.add(1, ordering: .relaxed)
            logger.error("fan-out: \(error)")
        }
    }

    /// Rows already delivered whose wake-up has not arrived yet (bounded: forgetting one only costs
    /// an empty take).
    struct TakenRows {
        private var ids: Set<Int64> = []
        static let capacity = 16_384

        mutating func record(_ id: Int64) {
            if ids.count >= Self.capacity { ids.removeAll(keepingCapacity: true) }
            ids.insert(id)
        }

        /// Whether `id` was already delivered (forgotten once its wake-up is seen).
        mutating func consume(_ id: Int64) -> Bool { ids.remove(id) != nil }
    }

    // MARK: Heartbeats and the sweep of dead nodes

    private func runHeartbeats(hub: SignalingHub, clock: any ServerClock) async {
        while !Task.isCancelled {
            await beat(hub: hub, clock: clock)
            try? await Task.sleep(for: options.heartbeatInterval)
        }
    }

    /// Writes this node's heartbeat, then removes the memberships of nodes found dead.
    func beat(hub: SignalingHub, clock: any ServerClock) async {
        let now = clock.nowMilliseconds()
        let cutoff = now - Int64(options.deadNodeAfterSeconds) * 1_000
        do throws(RendezvousStoreError) {
            let (dead, members): ([String], [MemberAddress]) = try await store.transaction { [logger, nodeID, options] connection in
                try await connection.query(
                    "INSERT INTO kith_nodes (node_id, heartbeat_at) VALUES (\(nodeID), \(now)) ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at",
                    logger: logger)
                var dead: [String] = []
                for try await node in try await connection.query(
                    "DELETE FROM kith_nodes WHERE heartbeat_at < \(cutoff) AND node_id <> \(nodeID) RETURNING node_id", logger: logger
                ).decode(String.self) { dead.append(node) }
                var members: [MemberAddress] = []
                for node in dead {
                    for try await client in try await connection.query(
                        "SELECT client_id FROM kith_members WHERE node_id = \(node)", logger: logger
                    ).decode(String.self) {
                        if let id = ClientID(client) { members.append(MemberAddress(node: node, client: id)) }
                    }
                }
                try await connection.query(
                    "DELETE FROM kith_signal_spool WHERE created_at < \(now - Int64(options.spoolLifetimeSeconds) * 1_000)", logger: logger)
                return (dead, members)
            }
            for member in members {
                guard let departure = try await store.leave(member, roomExpiresAt: hub.roomExpiry) else { continue }
                counters.swept.add(1, ordering: .relaxed)
                for peer in departure.remaining {
                    hub.bus.deliver(.peerGone(room: departure.room, message: .peerDisconnected(message: SignalingText.peerDisconnected)), to: peer.address)
                }
            }
            if !dead.isEmpty { logger.notice("fan-out: swept dead nodes", metadata: ["nodes": "\(dead.count)", "memberships": "\(members.count)"]) }
        } catch {
            logger.error("fan-out: heartbeat failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Running

    /// The service that runs the fan-out next to the server: sender, listener, heartbeats.
    func service(hub: SignalingHub, clock: any ServerClock) -> some Service {
        local.withLock { $0 = hub.bus }
        return FanoutService(bus: self, hub: hub, clock: clock)
    }

    struct FanoutService: Service {
        let bus: PostgresSignalBus
        let hub: SignalingHub
        let clock: any ServerClock

        func run() async throws {
            let timeout = bus.options.shutdownFlushTimeout
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await cancelWhenGracefulShutdown {
                        await withTaskGroup(of: Void.self) { inner in
                            inner.addTask { await bus.runListener() }
                            inner.addTask { await bus.runHeartbeats(hub: hub, clock: clock) }
                            await inner.next()
                            inner.cancelAll()
                        }
                    }
                }
                // On graceful shutdown the sender stops taking events and sends what is queued (the
                // departures of this node's connections among them), bounded by the flush timeout.
                await withGracefulShutdownHandler {
                    await withTaskGroup(of: Bool.self) { sender in
                        sender.addTask {
                            await bus.runSender(clock: clock)
                            return true
                        }
                        sender.addTask {
                            // The timeout only starts once shutdown starts.
                            try? await gracefulShutdown()
                            try? await Task.sleep(for: timeout)
                            return false
                        }
                        _ = await sender.next()
                        sender.cancelAll()
                    }
                } onGracefulShutdown: {
                    bus.finishSending()
                }
                group.cancelAll()
            }
        }
    }

    private final class Counters: Sendable {
        let sent = Atomic<Int>(0)
        let received = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)
        let swept = Atomic<Int>(0)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
