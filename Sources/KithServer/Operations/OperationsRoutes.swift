import Hummingbird
import KithCanonical
import KithRendezvous
import Logging
import NIOCore

/// The operator's endpoints: `GET /metrics` (Prometheus text), `GET /health` (JSON; 503 when the
/// store fails) and `GET /openapi.json` (the REST API's OpenAPI document). None is rate-limited
/// and none names a room, code or device.
struct OperationsRoutes: Sendable {
    let store: any RendezvousStore
    let clock: any ServerClock
    let metrics: ServerMetrics
    let connectionCount: @Sendable () -> Int

    /// Adds the endpoints to `router`.
    func register(on router: Router<RendezvousRequestContext>) {
        let routes = self
        router.get("/metrics") { _, _ in routes.metricsResponse() }
        router.get("/health") { _, _ in await routes.healthResponse() }
        router.get("/openapi.json") { _, context in routes.openAPIResponse(logger: context.logger) }
    }

    /// `200` with the OpenAPI document, the same bytes every time; `500 internal_error` when its
    /// fragments did not merge (a defect of the build, logged).
    func openAPIResponse(logger: Logger) -> Response {
        switch OpenAPIDocument.loaded {
        case .success(let document):
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: document.body))
        case .failure(let error):
            logger.error("GET /openapi.json: \(error)")
            return RESTResponse.json(.internalServerError, RendezvousErrorBody(error: RendezvousErrorCode.internalError).json)
        }
    }

    /// The Prometheus text exposition, the connection gauge refreshed first.
    func metricsResponse() -> Response {
        metrics.recordOpenConnections(connectionCount())
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    /// `200 {"status":"ok","store":"reachable","connections":N}`, or `503` with
    /// `"status":"unavailable","store":"unreachable"` when a read from the store fails.
    func healthResponse() async -> Response {
        let reachable: Bool
        do throws(RendezvousStoreError) {
            // A lookup of a random (absent) room: one read through the store's connection.
            _ = try await store.room(RoomID.random(), now: clock.nowMilliseconds())
            reachable = true
        } catch {
            reachable = false
        }
        let body: JSONObject = [
            "status": .string(reachable ? "ok" : "unavailable"),
            "store": .string(reachable ? "reachable" : "unreachable"),
            "connections": .integer(Int64(connectionCount())),
        ]
        return RESTResponse.json(reachable ? .ok : .serviceUnavailable, body)
    }
}
