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
        let limits = limits
        webSocketRouter.ws("/push/subscriptions/:secret/ws", shouldUpgrade: { _, context in
            let subscription = try await api.subscriber(context)
            // Refused before the upgrade (an HTTP 503 the client reads at once); the same bounds are checked again after it.
            guard hub.admits(subscriptionID: subscription.id, source: context.sourceKey, limits: limits) else {
                throw GatewayRejection(.serviceUnavailable, ["error": "too many subscriber connections for this subscription, source or node"])
            }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let subscription = try await api.subscriber(context.requestContext)
            try await channel.serve(subscription, source: context.requestContext.sourceKey, inbound: inbound, outbound: outbound, logger: context.logger)
        })
    }
}
