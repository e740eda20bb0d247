import Hummingbird
import KithPushDelivery
import Logging
import ServiceLifecycle

/// The push gateway, the dispatcher and the push service of one server, built from its
/// configuration and a ``PushStore``.
struct PushComponents: Sendable {
    let store: any PushStore
    let gateway: PushGatewayAPI
    let service: PushServiceAPI
    let channel: PushSubscriberChannel
    let hub: PushSubscriberHub
    let dispatcher: PushDispatcher
    let metrics: PushMetrics
    let publicBase: PublicBaseURL
    let clock: any ServerClock
    let logger: Logger

    init(configuration: RendezvousServerConfiguration, store: any PushStore, clock: any ServerClock, logger: Logger, metrics serverMetrics: ServerMetrics) {
        let push = configuration.push
        let limits = push.limits
        let metrics = PushMetrics(registry: serverMetrics.registry)
        let hub = PushSubscriberHub()
        let shown = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let scheme = configuration.tls == nil ? "http" : "https"
        let publicBase = PublicBaseURL(configured: push.publicURL, fallback: "\(scheme)://\(shown):\(configuration.port)", scheme: scheme)
        let dispatcher = PushDispatcher(providers: push.providers, store: store, limits: limits, metrics: metrics, logger: logger)
        let keys = configuration.limits.rateLimiterKeys
        self.store = store
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.hub = hub
        self.publicBase = publicBase
        self.dispatcher = dispatcher
        gateway = PushGatewayAPI(store: store, clock: clock, limits: limits, dispatcher: dispatcher, metrics: metrics, logger: logger, rateLimiterKeys: keys,
            endpointPolicy: push.webPushEndpointPolicy)
        service = PushServiceAPI(store: store, clock: clock, limits: limits, hub: hub, metrics: metrics, logger: logger, publicBase: publicBase, rateLimiterKeys: keys)
        channel = PushSubscriberChannel(store: store, clock: clock, limits: limits, hub: hub, metrics: metrics)
    }

    func register(on router: Router<RendezvousRequestContext>, webSocketRouter: Router<RendezvousRequestContext>) {
        gateway.register(on: router)
        service.register(on: router, webSocketRouter: webSocketRouter, channel: channel)
    }

    func housekeeping(interval: Duration) -> any Service {
        PushHousekeepingService(store: store, clock: clock, limits: gateway.limits, hub: hub, interval: interval, logger: logger)
    }
}
