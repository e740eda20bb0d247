import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import KithRendezvous
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import UnixSignals

/// `kith serve`: Inviso-compatible rooms by join code over REST and WebRTC signaling over
/// WebSocket on one port, state in a ``RendezvousStore``.
///
/// ```swift
/// let store = try SQLiteRendezvousStore.open(path: "rendezvous.sqlite")
/// let server = RendezvousServer(configuration: .init(), store: store)
/// try await server.run { host, port in print("listening on \(host):\(port)") }
/// ```
public struct RendezvousServer: Sendable {
    /// Where and how it runs.
    public let configuration: RendezvousServerConfiguration
    let hub: SignalingHub
    let api: RendezvousAPI
    let store: any RendezvousStore
    let clock: any ServerClock
    let logger: Logger
    let fanout: PostgresSignalBus?
    let push: PushComponents?
    /// The Prometheus metrics `GET /metrics` renders.
    public let metrics: ServerMetrics
    /// Open TCP connections by source, against ``RendezvousServerLimits/connectionsPerSource``.
    let sourceConnections: SourceConnectionCounter
    /// The TLS context of ``RendezvousServerConfiguration/tls``, made once (a failure refuses every connection
    /// rather than serving plain HTTP; ``ServerAssembly`` checks the files before a server is made).
    let tlsContext: Result<NIOSSLContext, any Error>?

    /// A server on `store`, reading time from `clock`; with `fanout`, events for connections on
    /// other nodes sharing the database travel through PostgreSQL (its node id must be
    /// `configuration.nodeID`). With `pushStore`, it also serves the push gateway (`/api/v1/`)
    /// and the push service (`/push/`) (`docs/PUSH.md`).
    public init(
        configuration: RendezvousServerConfiguration, store: any RendezvousStore,
        clock: any ServerClock = SystemServerClock(), logger: Logger = Logger(label: "kith.serve"),
        fanout: PostgresSignalBus? = nil,
        metrics: ServerMetrics = ServerMetrics(),
        pushStore: (any PushStore)? = nil
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.logger = logger
        self.fanout = fanout
        self.metrics = metrics
        sourceConnections = SourceConnectionCounter(limitPerSource: configuration.limits.connectionsPerSource)
        tlsContext = configuration.tls.map { tls in Result { try NIOSSLContext(configuration: tls) } }
        let bus = LocalSignalBus(nodeID: configuration.nodeID)
        if let fanout { bus.route(remote: fanout) }
        hub = SignalingHub(
            store: store, bus: bus, clock: clock, limits: configuration.limits, metrics: metrics, providers: configuration.push.providers, logger: logger)
        api = RendezvousAPI(
            store: store, clock: clock, limits: configuration.limits, hub: hub, logger: logger, turn: configuration.turn, metrics: metrics)
        push = pushStore.map { PushComponents(configuration: configuration, store: $0, clock: clock, logger: logger, metrics: metrics) }
    }

    /// The knock dispatcher, when the server has a push store.
    public var pushDispatcher: PushDispatcher? { push?.dispatcher }

    /// The push counters, when the server has a push store.
    public var pushMetrics: PushMetrics? { push?.metrics }

    /// Push subscriber WebSockets open on this node.
    public var pushSubscriberCount: Int { push?.hub.count ?? 0 }

    /// Signaling connections open on this node now.
    public var connectionCount: Int { hub.bus.count }

    /// Counters of the blind relay on this node (relayed bytes and frames, activations, refusals).
    public var relayStatistics: RelayStatistics { hub.relayStatistics }

    /// The Hummingbird application (for `run` and for HummingbirdTesting); `onListening` gets the
    /// bound host and port once the server accepts connections.
    public func makeApplication(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) -> some ApplicationProtocol {
        let (router, webSocketRouter) = makeRouters()
        let hub = hub
        let limits = configuration.limits
        let webSocketResponder = webSocketRouter.buildResponder()
        let sourceConnections = sourceConnections
        let metrics = metrics
        let requestTimeout = TimeAmount(limits.requestTimeout)
        let server = HTTPServerBuilder { responder in
            GuardedUpgradeChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(
                            additionalChannelHandlers: [
                                RequestDeadlineHandler(timeout: requestTimeout) { metrics.connectionRejected(.requestTimeout) }
                            ],
                            idleTimeout: .seconds(60)),
                        ws: .init(maxFrameSize: limits.maximumMessageBytes, autoPing: .enabled(timePeriod: limits.pingInterval)))),
                requestHeadTimeout: TimeAmount(limits.requestHeadTimeout),
                tls: tlsContext,
                signalingHub: hub,
                connections: sourceConnections, metrics: metrics)
        }
        let host = configuration.host
        var services: [any Service] = [
            SweepService(store: store, clock: clock, interval: limits.sweepInterval, logger: logger), IdleSweepService(hub: hub),
        ]
        if let fanout { services.append(fanout.service(hub: hub, clock: clock)) }
        if let push { services.append(push.housekeeping(interval: limits.sweepInterval)) }
        let publicBase = push?.publicBase
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                publicBase?.listening(host: host, port: port)
                await onListening(host, port)
            },
            logger: logger)
    }

    /// The REST router (every HTTP route) and the router of the push subscribers' WebSockets.
    /// Signaling WebSockets never reach either: ``GuardedUpgradeChannel`` serves them.
    func makeRouters() -> (http: Router<RendezvousRequestContext>, webSocket: Router<RendezvousRequestContext>) {
        let router = Router(context: RendezvousRequestContext.self)
        router.add(middleware: RequestObservationMiddleware(metrics: metrics))
        router.add(middleware: MethodNotAllowedMiddleware())
        api.register(on: router)
        InvitePages(clock: clock, limits: configuration.limits).register(on: router)
        let bus = hub.bus
        OperationsRoutes(store: store, clock: clock, metrics: metrics, connectionCount: { bus.count }).register(on: router)
        let webSocketRouter = Router(context: RendezvousRequestContext.self)
        push?.register(on: router, webSocketRouter: webSocketRouter)
        return (router, webSocketRouter)
    }

    /// The application and the shutdown notice in one service group: on graceful shutdown (one of
    /// `signals`, or ``ServiceGroup/triggerGracefulShutdown()``) every signaling peer first gets an
    /// `error` (`Server shutting down`) and a close frame 1001 `going away`, the server waits up to
    /// `drainTimeout` for them to answer, then the listener stops.
    public func makeServiceGroup(
        signals: [UnixSignal] = [.sigterm, .sigint], drainTimeout: Duration = .seconds(5),
        onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }
    ) -> ServiceGroup {
        let services: [any Service] = [
            makeApplication(onListening: onListening),
            GoingAwayService(hub: hub, drainTimeout: drainTimeout, logger: logger),
        ]
        return ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: signals, logger: logger))
    }

    /// Runs until SIGINT or SIGTERM, tells every signaling peer it is going away (1001) and returns.
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws {
        try await makeServiceGroup(onListening: onListening).run()
    }
}
