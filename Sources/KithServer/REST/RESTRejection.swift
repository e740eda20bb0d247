import Hummingbird
import KithRendezvous

/// A REST request refused with a status and Inviso's error body; Hummingbird renders it.
struct RESTRejection: HTTPResponseError {
    let status: HTTPResponse.Status
    let body: RendezvousErrorBody
    var retryAfterSeconds: Int?

    init(_ status: HTTPResponse.Status, _ body: RendezvousErrorBody, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.body = body
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// 400 for a body or query the codec rejected.
    init(rejecting error: RendezvousCodecError) {
        self.init(.badRequest, RendezvousErrorBody(rejecting: error))
    }

    /// 429 with `Retry-After`.
    static func rateLimited(retryAfterSeconds: Int) -> RESTRejection {
        RESTRejection(.tooManyRequests, RendezvousErrorBody(error: RendezvousErrorCode.rateLimited), retryAfterSeconds: retryAfterSeconds)
    }

    /// 500: the store failed (the detail goes to the log, not to the client).
    static let internalError = RESTRejection(.internalServerError, RendezvousErrorBody(error: RendezvousErrorCode.internalError))

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = RESTResponse.json(status, body.json)
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }
}
