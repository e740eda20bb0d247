import KithPushDelivery
import KithRendezvous
import Logging
import Synchronization

/// Runs Inviso's signaling protocol on each WebSocket connection: rooms from the store, events
/// between members through the bus, limits from ``RendezvousServerLimits``.
///
/// Logs carry message types and counts only: never room ids, codes, device ids, SDP or keys.
final class SignalingHub: Sendable {
    let store: any RendezvousStore
    let bus: LocalSignalBus
    let clock: any ServerClock
    let limits: RendezvousServerLimits
    /// Counters of the blind relay on this node.
    let relayStatistics = RelayStatistics()
    let metrics: ServerMetrics
    /// Inviso's presence pushes (`ping_peer`, a lone `join_room`).
    let presence: PresencePusher
    /// Set once the server shuts down: new connections are turned away.
    private let goingAway = Atomic<Bool>(false)

    init(
        store: any RendezvousStore, bus: LocalSignalBus, clock: any ServerClock, limits: RendezvousServerLimits, metrics: ServerMetrics,
        providers: [any PushProvider] = [], logger: Logger = Logger(label: "kith.serve")
    ) {
        self.store = store
        self.bus = bus
        self.clock = clock
        self.limits = limits
        self.metrics = metrics
        presence = PresencePusher(store: store, clock: clock, providers: providers, limits: limits, logger: logger, metrics: metrics)
    }

    /// Tells every connection the server stops (`error` `Server shutting down`, then close 1001)
    /// and turns new ones away; answers how many were told.
    func goAway() -> Int {
        goingAway.store(true, ordering: .sequentiallyConsistent)
        let connections = bus.registered
        for connection in connections {
            connection.send(.error(SignalingText.shuttingDown))
            connection.requestClose(.shutdown)
        }
        return connections.count
    }

    /// When a room touched now expires.
    var roomExpiry: Int64 { clock.nowMilliseconds() + Int64(limits.roomLifetimeSeconds) * 1_000 }

    /// What ``admitConnection(outbox:source:logger:)`` decided.
    enum ConnectionAdmission {
        /// Registered on the bus and greeted with `connected`.
        case accepted(SignalingConnection)
        /// Turned away: close with the reason's code once the client had time to see the upgrade.
        case refused(SignalingCloseReason)
    }

    /// Admits a new connection from `source` whose frames go to `outbox`: refused while the server
    /// shuts down, when the node holds its maximum of connections, or when only the reserved slots
    /// are left (``RendezvousServerLimits/reservedConnections``) and `source` already holds one;
    /// otherwise registered on the bus and sent `connected`.
    func admitConnection(outbox: any SignalingOutbox, source: String, logger: Logger) -> ConnectionAdmission {
        let address = MemberAddress(node: bus.nodeID, client: .random())
        let connection = SignalingConnection(
            address: address, outbox: outbox, rule: limits.messagesPerConnection,
            now: clock.nowMilliseconds(), bufferLimit: limits.outboxCapacity,
            relayLimits: limits.relay, statistics: relayStatistics)
        if goingAway.load(ordering: .sequentiallyConsistent) { return .refused(.shutdown) }
        switch bus.register(connection, source: source, limit: limits.maximumConnections, reserved: limits.reservedConnections) {
        case .success:
            break
        case .failure(.full):
            logger.notice("signaling connection refused: node full")
            metrics.signalingRejected(.serverFull)
            return .refused(.overloaded)
        case .failure(.sourceHoldsOne):
            logger.notice("signaling connection refused: the last slots are kept for other sources")
            metrics.signalingRejected(.sourceFull)
            return .refused(.overloaded)
        }
        metrics.connectionAccepted()
        connection.send(.connected(clientID: address.client, server: SignalingText.serverName))
        return .accepted(connection)
    }

    /// How long a client has to answer the server's close frame.
    static let closeGrace: Duration = .seconds(10)

    /// Closes every connection of this node that is idle (in no room, silent for the idle
    /// timeout). One sweep for the whole node (``IdleSweepService``), not a sleeping task per
    /// connection: an idle connection costs less memory.
    func closeIdleConnections() {
        let timeout = limits.idleTimeout
        for connection in bus.registered where connection.isIdle(timeout: timeout) {
            connection.requestClose(.idle)
        }
    }

    /// How often the idle sweep runs: a quarter of the idle timeout, at most 15 s.
    var idleSweepInterval: Duration { min(limits.idleTimeout / 4, .seconds(15)) }

    /// Counts one signaling message (not a relay frame) against the connection's rate limit and
    /// decodes it; nil when it was dropped (over the rate, or malformed: the client was told, or
    /// the connection is being closed for persistent excess).
    /// Counts a WebSocket ping from the client as activity (Inviso's app pings every 25 s, in a room or not, and
    /// must not be closed as idle) and against the same rate limit as messages; false when it is dropped (over the
    /// rate; persistent excess closes the connection).
    func admitPing(on connection: SignalingConnection) -> Bool {
        switch connection.admit(rule: limits.messagesPerConnection, strikeLimit: limits.rateLimitStrikes, now: clock.nowMilliseconds()) {
        case .allowed:
            return true
        case .limited:
            metrics.signalingRejected(.rateLimit)
            return false
        case .strikeOut:
            metrics.signalingRejected(.rateLimit)
            connection.requestClose(.rateLimit)
            return false
        }
    }

    func admitMessage(_ bytes: [UInt8], on connection: SignalingConnection) -> ClientMessage? {
        switch connection.admit(rule: limits.messagesPerConnection, strikeLimit: limits.rateLimitStrikes, now: clock.nowMilliseconds()) {
        case .allowed: break
        case .limited:
            metrics.signalingRejected(.rateLimit)
            connection.send(.error(SignalingText.rateLimited))
            return nil
        case .strikeOut:
            metrics.signalingRejected(.rateLimit)
            connection.requestClose(.rateLimit)
            return nil
        }
        do throws(RendezvousCodecError) {
            return try ClientMessage(bytes: bytes)
        } catch {
            metrics.signalingRejected(.badMessage)
            connection.send(.error(SignalingText.error(for: error)))
            return nil
        }
    }

    /// Handles the messages that need no store (`ping`, signals, `relay_start`, `ping_peer`) at once; false
    /// for the others (`join_room`, `leave_room`), which ``handle(_:on:)`` runs.
    func handleAtOnce(_ message: ClientMessage, on connection: SignalingConnection) -> Bool {
        switch message {
        case .ping: connection.send(.pong)
        case .signal(let payload): relay(payload, from: connection)
        case .relayStart: startRelay(on: connection)
        case .pingPeer: if !answerPingAtOnce(on: connection) { pingPeer(on: connection) }
        case .joinRoom, .leaveRoom: return false
        }
        return true
    }

    func handle(_ message: ClientMessage, on connection: SignalingConnection) async {
        do throws(RendezvousStoreError) {
            switch message {
            case .ping: connection.send(.pong)
            case .joinRoom(let room, let device): try await join(room, device: device, on: connection)
            case .leaveRoom: try await leave(on: connection)
            case .signal(let payload): relay(payload, from: connection)
            case .relayStart: startRelay(on: connection)
            case .pingPeer: if !answerPingAtOnce(on: connection) { pingPeer(on: connection) }
            }
        } catch {
            metrics.signalingRejected(.storeError)
            connection.send(.error(SignalingText.serverError))
        }
    }

    /// `ping_peer` when no push is needed: `error` outside a room, `ping_sent` alone when the peer is connected. False
    /// when a push may be due (``pingPeer(on:)``).
    private func answerPingAtOnce(on connection: SignalingConnection) -> Bool {
        let (room, peer) = connection.placement
        guard room != nil else {
            connection.send(.error(SignalingText.notInARoom))
            return true
        }
        guard peer == nil else {
            connection.send(.pingSent)
            return true
        }
        return false
    }

    /// `ping_peer` alone in a room: answers `ping_sent` at once (as Inviso does, whether a push goes out or not) and
    /// pushes to the peer in the background, so a slow push service never stalls the connection.
    func pingPeer(on connection: SignalingConnection) {
        connection.send(.pingSent)
        let presence = presence
        let asker = connection.address
        Task { await presence.pushToPeer(of: asker) }
    }

    private func relay(_ payload: SignalPayload, from connection: SignalingConnection) {
        let (room, peer) = connection.placement
        guard let room else { return connection.send(.error(SignalingText.notInRoom)) }
        guard let peer else { return connection.send(.error(SignalingText.roomNotReady)) }
        let signal = RelayedSignal(from: connection.address.client, roomID: room, payload: payload)
        bus.deliver(.relayed(from: connection.address, room: room, message: .relayed(signal)), to: peer)
        metrics.signalRelayed()
    }
}
