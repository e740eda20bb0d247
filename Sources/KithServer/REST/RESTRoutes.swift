import Hummingbird
import KithRendezvous

extension RendezvousAPI {
    /// Adds the REST endpoints to `router`. No endpoint lists rooms (Inviso's `GET /rooms` did).
    func register(on router: Router<RendezvousRequestContext>) {
        let api = self
        router.get("/") { _, _ in RESTResponse.text(.ok, "Kith rendezvous server (Inviso-compatible signaling) active") }
        router.post("/api/rooms") { request, context in try await api.createRoom(request, context) }
        router.post("/api/rooms/accept") { request, context in try await api.acceptRoom(request, context) }
        router.post("/api/rooms/check") { request, context in try await api.checkRoom(request, context) }
        router.get("/api/rooms") { request, context in try await api.getRoom(request, context) }
        router.delete("/api/rooms") { request, context in try await api.deleteRoom(request, context) }
        router.post("/api/user/purge") { request, context in try await api.purge(request, context) }
        router.get("/api/turn-credentials") { request, context in try await api.turnCredentials(request, context) }
        // Inviso's retired endpoints answer 410 so old clients learn to upgrade.
        let retired = RESTRejection(.gone, RendezvousErrorBody(error: RendezvousErrorCode.useNewEndpoints))
        router.post("/api/rooms/:roomid/accept") { _, _ -> Response in throw retired }
        router.get("/api/rooms/:roomid") { _, _ -> Response in throw retired }
    }
}
