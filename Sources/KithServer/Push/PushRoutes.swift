import Hummingbird
import HummingbirdWebSocket

extension PushServiceAPI {
    /// Adds `/push/` to `router` (HTTP) and the subscriber channel to `webSocketRouter`.
    func register(on router: Router<RendezvousRequestContext>, webSocketRouter: Router<RendezvousRequestContext>, channel: PushSubscriberChannel) {
        let api = self
        router.post("/push/subscriptions") { request, context in try await api.createSubscription(request, context) }
        router.delete("/push/subscriptions/:secret") { request, context in try await api.deleteSubscription(request, context) }
        router.post("/push/:capability") { request, context in try await api.pushMessage(request, context) }
        let hub = hub
        let maximum = limits.maximumSubscribers
        webSocketRouter.ws("/push/subscriptions/:secret/ws", shouldUpgrade: { _, context in
            _ = try await api.subscriber(context)
            guard hub.count < maximum else { throw GatewayRejection(.serviceUnavailable, ["error": "too many subscribers on this node"]) }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let subscription = try await api.subscriber(context.requestContext)
            try await channel.serve(subscription, source: context.requestContext.sourceKey, inbound: inbound, outbound: outbound, logger: context.logger)
        })
    }
}
