import Hummingbird
import KithPushDelivery

extension PushGatewayAPI {
    /// Adds `/api/v1/` to `router` (a trailing slash is optional on every path).
    func register(on router: Router<RendezvousRequestContext>) {
        let api = self
        let v1 = "/api/v1"
        router.post("\(v1)/accounts") { request, context in try await api.createAccount(request, context) }
        router.get("\(v1)/accounts") { request, context in try await api.ownAccount(request, context) }
        router.get("\(v1)/accounts/:username") { request, context in try await api.account(request, context) }
        router.delete("\(v1)/accounts/:username") { request, context in try await api.deleteAccount(request, context) }
        for (segment, kind) in [("apns", PushTargetKind.apns), ("gcm", .fcm), ("webpush", .webPush)] {
            let base = "\(v1)/device/\(segment)"
            router.post(RouterPath(base)) { request, context in try await api.registerDevice(request, context, kind: kind) }
            router.get(RouterPath(base)) { request, context in try await api.listDevices(request, context, kind: kind) }
            router.get(RouterPath(base + "/:id")) { request, context in try await api.getDevice(request, context, kind: kind) }
            router.put(RouterPath(base + "/:id")) { request, context in try await api.updateDevice(request, context, kind: kind, partial: false) }
            router.patch(RouterPath(base + "/:id")) { request, context in try await api.updateDevice(request, context, kind: kind, partial: true) }
            router.delete(RouterPath(base + "/:id")) { request, context in try await api.deleteDevice(request, context, kind: kind) }
        }
        router.post("\(v1)/tokens") { request, context in try await api.createTokens(request, context) }
        router.get("\(v1)/tokens") { request, context in try await api.listTokens(request, context) }
        router.get("\(v1)/tokens/:token") { request, context in try await api.getToken(request, context) }
        router.delete("\(v1)/tokens/:token") { request, context in try await api.deleteToken(request, context) }
        router.post("\(v1)/messages") { request, context in try await api.knock(request, context) }
    }
}
