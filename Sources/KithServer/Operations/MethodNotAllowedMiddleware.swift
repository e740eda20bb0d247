import Hummingbird
import KithRendezvous

/// Answers `405 Method Not Allowed` with an `Allow` header (RFC 9110 §15.5.6) when a request names
/// a known path with a method it does not serve; Hummingbird's router alone answers 404. Found by
/// schemathesis's `unsupported_method` check.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = RendezvousRequestContext

    /// The methods each REST path serves (`*` stands for one path segment), as `/openapi.json`
    /// documents them; a literal path wins over `*`, as in the router (`GET /api/rooms/check` does
    /// not reach Inviso's retired `GET /api/rooms/:roomid`).
    static let routes: [(path: [Substring], methods: [HTTPRequest.Method])] = [
        ([""], [.get]),
        (["api", "rooms"], [.get, .post, .delete]),
        (["api", "rooms", "accept"], [.post]),
        (["api", "rooms", "check"], [.post]),
        (["api", "rooms", "*"], [.get]),
        (["api", "rooms", "*", "accept"], [.post]),
        (["api", "user", "purge"], [.post]),
        (["api", "turn-credentials"], [.get]),
        (["health"], [.get]),
        (["metrics"], [.get]),
        (["openapi.json"], [.get]),
        // The push gateway (ChatSecure-Push's /api/v1/) and the push service (docs/PUSH.md).
        (["api", "v1", "accounts"], [.get, .post]),
        (["api", "v1", "accounts", "*"], [.get, .delete]),
        (["api", "v1", "device", "apns"], [.get, .post]),
        (["api", "v1", "device", "apns", "*"], [.get, .put, .patch, .delete]),
        (["api", "v1", "device", "gcm"], [.get, .post]),
        (["api", "v1", "device", "gcm", "*"], [.get, .put, .patch, .delete]),
        (["api", "v1", "device", "webpush"], [.get, .post]),
        (["api", "v1", "device", "webpush", "*"], [.get, .put, .patch, .delete]),
        (["api", "v1", "tokens"], [.get, .post]),
        (["api", "v1", "tokens", "*"], [.get, .delete]),
        (["api", "v1", "messages"], [.post]),
        (["push", "subscriptions"], [.post]),
        (["push", "subscriptions", "*"], [.delete]),
        (["push", "*"], [.post]),
    ]

    /// The methods `path` serves; empty for an unknown path.
    static func allowedMethods(path: String) -> [HTTPRequest.Method] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.count > 1, segments.last == "" { segments = segments.dropLast() }
        let candidates = routes.filter { route in
            route.path.count == segments.count
                && zip(route.path, segments).allSatisfy { pattern, segment in pattern == "*" ? !segment.isEmpty : pattern == segment }
        }
        return (candidates.first { !$0.path.contains("*") } ?? candidates.first)?.methods ?? []
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            let allowed = Self.allowedMethods(path: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            throw MethodNotAllowed(allowed: allowed)
        }
    }
}

/// `405 {"error":"method_not_allowed"}` with `Allow`.
struct MethodNotAllowed: HTTPResponseError {
    let allowed: [HTTPRequest.Method]
    var status: HTTPResponse.Status { .methodNotAllowed }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = RESTResponse.json(status, RendezvousErrorBody(error: "method_not_allowed").json)
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }
}
