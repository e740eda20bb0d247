import AsyncHTTPClient
import KithCanonical
import NIOCore
import NIOHTTP1

/// One HTTP answer, its body read up to a bound.
struct PushHTTPAnswer: Sendable {
    let status: Int
    let body: [UInt8]
    let retryAfter: Int?
    let location: String?

    /// The body as a JSON object (bounded parse).
    func object() throws(PushClientError) -> JSONObject {
        guard let value = try? CanonicalJSON.parse(body, limits: PushClientLimits.responseJSON), let object = value.objectValue else {
            throw .invalidResponse(status: status, reason: "the body is not a JSON object")
        }
        return object
    }

    /// A short, printable excerpt of an error body.
    var detail: String? {
        guard !body.isEmpty else { return nil }
        let printable = body.prefix(200).map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "?" }
        return String(printable)
    }

    /// The typed error for an unexpected status.
    func failure() -> PushClientError {
        switch status {
        case 401: .invalidCredentials
        case 429: .rateLimited(retryAfterSeconds: retryAfter)
        default: .rejected(status: status, detail: detail)
        }
    }
}

/// The bounded HTTP transport both clients share.
struct PushHTTP: Sendable {
    let httpClient: HTTPClient
    let timeout: TimeAmount

    func send(_ method: HTTPMethod, _ url: String, body: JSONObject?, headers: [(String, String)] = []) async throws(PushClientError) -> PushHTTPAnswer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(CanonicalJSON.serialize(body))
        }
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: PushClientLimits.maxResponseBytes)
            return PushHTTPAnswer(
                status: Int(response.status.code), body: Array(bytes.readableBytesView),
                retryAfter: response.headers.first(name: "Retry-After").flatMap { Int($0) }.map { max(0, min($0, 86_400)) },
                location: response.headers.first(name: "Location")
            )
        } catch {
            throw .unreachable(url: Self.shown(url), detail: String(describing: error))
        }
    }

    /// The scheme and host of `url`, for messages: its path can hold a capability (a subscription
    /// secret, a push endpoint), which must not reach logs or a terminal.
    static func shown(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "(invalid URL)" }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return String(url[..<schemeEnd.upperBound]) + host
    }

    /// Checks a base URL and drops trailing slashes.
    static func base(_ url: String) throws(PushClientError) -> String {
        guard url.utf8.count <= 512, url.hasPrefix("http://") || url.hasPrefix("https://"),
              url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidURL(url) }
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
