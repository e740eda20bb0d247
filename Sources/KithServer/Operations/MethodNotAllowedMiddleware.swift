import Hummingbird
import KithRendezvous

/// Answers `405 Method Not Allowed` with an `Allow` header (RFC 9110 §15.5.6) when a request names
/// a known path with a method it does not serve; Hummingbird's router alone answers 404. Found by
/// schemathesis's `unsupported_method` check.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = RendezvousRequestContext

    /// The methods each REST path serves (`*` stands for one path segment), read from the
    /// `/openapi.json` document (``OpenAPIDocument``), the one list of operations; a literal path
    /// wins over `*`, as in the router (`GET /api/rooms/check` does not reach Inviso's retired
    /// `GET /api/rooms/:roomid`).
    static let routes: [(path: [Substring], methods: [HTTPRequest.Method])] =
        ((try? OpenAPIDocument.loaded.get())?.operations ?? []).map { (pattern(of: $0.path), $0.methods) }

    /// The segments of a documented path, `{parameter}` as `*` and without a trailing slash
    /// (`/api/v1/accounts/{username}/` is `api`, `v1`, `accounts`, `*`; `/` is one empty segment).
    static func pattern(of documentedPath: String) -> [Substring] {
        segments(of: documentedPath).map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "*" : $0 }
    }

    /// The segments of `path` after its leading slash, a trailing slash dropped.
    static func segments(of path: String) -> ArraySlice<Substring> {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return segments.count > 1 && segments.last == "" ? segments.dropLast() : segments
    }

    /// The methods `path` serves; empty for an unknown path.
    static func allowedMethods(path: String) -> [HTTPRequest.Method] {
        let segments = Self.segments(of: path)
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
