import HTTPTypes
import Hummingbird
import KithInvites
import NIOCore

/// The public invite page: `GET /i/<code>` and Convos' `GET /v2?i=<code>` answer a small HTML page that decodes the
/// invite on the server (bounded by ``maximumCodeCharacters`` and KithInvites' decompression caps) and shows what it
/// says, its expiry on the server's clock and whether its signature verifies.
///
/// Nothing about a request is stored or logged (no code, no address); the per-source rate limit keeps only a token
/// bucket per source in memory, as for the REST endpoints.
struct InvitePages: Sendable {
    /// The longest code the page reads (a link is kept in a URL; Convos' invites are a few hundred characters).
    static let maximumCodeCharacters = 4_096

    let clock: any ServerClock
    let requestsPerSource: RateLimiter

    init(clock: any ServerClock, limits: RendezvousServerLimits) {
        self.clock = clock
        requestsPerSource = RateLimiter(rule: limits.requestsPerSource, maximumKeys: limits.rateLimiterKeys)
    }

    /// Adds both routes to `router`.
    func register(on router: Router<RendezvousRequestContext>) {
        let pages = self
        router.get("/i/:code") { _, context in pages.answer(code: context.parameters.get("code"), source: context.sourceKey) }
        router.get("/v2") { request, context in pages.answer(code: request.uri.queryParameters.get("i"), source: context.sourceKey) }
    }

    /// The response for `code` (as found in the URL) requested from `source`.
    func answer(code: String?, source: String) -> Response {
        if case .limited(let seconds) = requestsPerSource.take(source, now: clock.nowMilliseconds()) {
            var response = Self.html(.tooManyRequests, InvitePageHTML.rejection(reason: "Too many requests: try again in \(seconds) seconds."))
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        switch Self.preview(code: code, nowUnix: clock.nowMilliseconds() / 1_000) {
        case .success(let preview): return Self.html(.ok, InvitePageHTML.page(preview))
        case .failure(let rejection): return Self.html(.badRequest, InvitePageHTML.rejection(reason: rejection.reason))
        }
    }

    /// Why a code gives no page.
    struct Rejection: Error, Equatable {
        let reason: String
    }

    /// Decodes `code` into what the page shows, or the reason it cannot.
    static func preview(code: String?, nowUnix: Int64) -> Result<InvitePreview, Rejection> {
        guard let code, !code.isEmpty else { return .failure(Rejection(reason: "The link carries no invite code.")) }
        let length = code.utf8.count
        guard length <= maximumCodeCharacters else {
            return .failure(Rejection(reason: "The invite code is too long (\(length) characters; this page reads at most \(maximumCodeCharacters))."))
        }
        do throws(InviteError) {
            let invite = try InviteCode.decode(code)
            return .success(InvitePreview(invite: invite, code: code, nowUnix: nowUnix))
        } catch {
            return .failure(Rejection(reason: "This link is not a readable invite: \(error.description)."))
        }
    }

    /// An HTML response with the page's security headers.
    static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: InvitePageHTML.contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            referrerPolicy: "no-referrer",
            .cacheControl: "no-store",
            frameOptions: "DENY",
        ]
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    private static let frameOptions = HTTPField.Name("X-Frame-Options")!
}
