import Hummingbird
import Logging

/// Counts refused REST requests by reason and logs each request as structured metadata: method,
/// the matched route's template (never the path or query, which may hold room ids), status and
/// duration.
struct RequestObservationMiddleware: RouterMiddleware {
    typealias Context = RendezvousRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: Int(response.status.code), since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500
            metrics.restRejected(RejectionReason.rest(status: status))
            log(request, context, status: status, since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        context.logger.log(level: status >= 500 ? .error : .debug, "request", metadata: [
            "method": .string(request.method.rawValue),
            "route": .string(context.endpointPath ?? "unmatched"),
            "status": .stringConvertible(status),
            "us": .stringConvertible(microseconds),
        ])
    }
}
