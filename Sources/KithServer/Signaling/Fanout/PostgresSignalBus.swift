import Crypto
import KithRendezvous
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Carries ``SignalEvent``s between nodes sharing one PostgreSQL database, with `LISTEN`/`NOTIFY`.
///
/// Each node listens on its own channel (`kith_` + 40 hex digits of SHA-256 of its node id); an
/// event for a connection on another node is encoded (``SignalEventCodec``) and sent with
/// `pg_notify` to that node's channel, in order, by one sender task (each notification commits
/// before the next, so a connection's events arrive in the order they were sent). Payloads above
/// ``PostgresFanoutOptions/inlinePayloadBytes`` go through the `kith_signal_spool` table.
///
/// Nodes heartbeat into `kith_nodes`; every heartbeat a node also sweeps: a node silent for
/// ``PostgresFanoutOptions/deadNodeAfterSeconds`` is deleted (by exactly one sweeper), its
/// memberships are left through the store, and their peers get `peer_disconnected`.
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

    private func runSender(clock: any ServerClock) async {
        for await (channel, payload) in outgoingStream {
            do throws(RendezvousStoreError) {
                let inline = payload.utf8.count <= options.inlinePayloadBytes
                try await store.transaction { connection in
                    if inline {
                        try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
                    } else {
                        var id: Int64 = 0
                        for try await row in try await connection.query(
                            "INSERT INTO kith_signal_spool (created_at, payload) VALUES (\(clock.nowMilliseconds()), \(payload)) RETURNING id",
                            logger: logger
                        ).decode(Int64.self) { id = row }
                        try await connection.query("SELECT pg_notify(\(channel), \("@\(id)"))", logger: logger)
                    }
                }
                counters.sent.add(1, ordering: .relaxed)
            } catch {
                counters.dropped.add(1, ordering: .relaxed)
                logger.error("fan-out: notify failed", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Receiving

    private func runListener() async {
        let channel = Self.channel(of: nodeID)
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        for try await notification in notifications { await self.receive(notification.payload) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.error("fan-out: listener failed, reconnecting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func receive(_ payload: String) async {
        var text = payload
        if payload.hasPrefix("@") {
            guard let id = Int64(payload.dropFirst()) else {
                counters.dropped.add(1, ordering: .relaxed)
                return
            }
            do throws(RendezvousStoreError) {
                text = try await store.transaction { connection in
                    var spooled = ""
                    for try await row in try await connection.query(
                        "DELETE FROM kith_signal_spool WHERE id = \(id) RETURNING payload", logger: logger
                    ).decode(String.self) { spooled = row }
                    return spooled
                }
            } catch {
                logger.error("fan-out: spool read failed", metadata: ["error": "\(error)"])
                counters.dropped.add(1, ordering: .relaxed)
                return
            }
        }
        do throws(SignalEventCodec.Malformed) {
            let (event, client) = try SignalEventCodec.decode(text)
            counters.received.add(1, ordering: .relaxed)
            local.withLock { $0 }?.deliver(event, to: MemberAddress(node: nodeID, client: client))
        } catch {
            counters.dropped.add(1, ordering: .relaxed)
            logger.error("fan-out: \(error)")
        }
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
            let (dead, members): ([String], [MemberAddress]) = try await store.transaction { connection in
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
            await cancelWhenGracefulShutdown {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await bus.runSender(clock: clock) }
                    group.addTask { await bus.runListener() }
                    group.addTask { await bus.runHeartbeats(hub: hub, clock: clock) }
                    await group.next()
                    group.cancelAll()
                }
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
