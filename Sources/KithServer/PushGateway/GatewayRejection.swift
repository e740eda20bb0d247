import Hummingbird
import KithCanonical
import KithRendezvous

/// A gateway or push-service request refused with a status and a JSON body (ChatSecure's
/// `{"error": …}` or DRF's `{field: [messages]}`), or no body at all (the knock's 404).
struct GatewayRejection: HTTPResponseError {
    let status: HTTPResponse.Status
    let body: JSONObject?
    var retryAfterSeconds: Int?
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ body: JSONObject?, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.body = body
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// 400 with DRF's `{field: [message]}`.
    static func field(_ name: String, _ message: String) -> GatewayRejection {
        GatewayRejection(.badRequest, [name: .array([.string(message)])])
    }

    /// 400 with `{"error": message}`.
    static func badRequest(_ message: String) -> GatewayRejection {
        GatewayRejection(.badRequest, ["error": .string(message)])
    }

    /// 401: missing or unknown API token.
    static let unauthorized = GatewayRejection(.unauthorized, ["detail": "Authentication credentials were not provided or are invalid."])

    /// 404 with an empty body (unknown device, token, capability; the knock's unknown, expired or revoked token).
    static let notFound = GatewayRejection(.notFound, nil)

    /// 429 with `Retry-After`.
    static func rateLimited(retryAfterSeconds: Int) -> GatewayRejection {
        GatewayRejection(.tooManyRequests, ["error": "rate_limited"], retryAfterSeconds: retryAfterSeconds)
    }

    /// 503 with `Retry-After: 3600`: the store holds its maximum of accounts or subscriptions.
    static func full(_ message: String) -> GatewayRejection {
        GatewayRejection(.serviceUnavailable, ["error": .string(message)], retryAfterSeconds: 3_600)
    }

    /// 413: a body over the limit.
    static func tooLarge(limit: Int) -> GatewayRejection {
        GatewayRejection(.contentTooLarge, ["error": .string("request bodies are limited to \(limit) bytes")])
    }

    /// 415: a body not declared `Content-Type: application/json` (``JSONContentType``).
    static let unsupportedMediaType = GatewayRejection(
        .unsupportedMediaType, ["error": "unsupported_media_type", "detail": "Send the body as JSON with Content-Type: application/json."])

    /// 500: the store failed (the detail goes to the log, not to the client).
    static let internalError = GatewayRejection(.internalServerError, ["error": "internal_error"])

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = body.map { RESTResponse.json(status, $0) } ?? Response(status: status)
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        for field in headers { response.headers.append(field) }
        return response
    }
}
