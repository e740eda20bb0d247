/// Why a rendezvous client request or signaling connection failed.
public enum RendezvousClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server address is not an `http://` or `https://` URL (or `ws://`/`wss://` for signaling).
    case invalidURL(String)
    /// The connection failed or timed out; `detail` is the transport's reason.
    case transport(String)
    /// 404: no such pending pairing or room, or it expired.
    case notFoundOrExpired
    /// 409: the join code is taken (creating) or was already accepted by another device (accepting).
    case conflict(String)
    /// 429: too many attempts; retry after the given number of seconds (when the server said).
    case rateLimited(retryAfterSeconds: Int?)
    /// Another error answer: the status and the server's error body, when it sent one.
    case rejected(status: Int, error: RendezvousErrorBody?)
    /// The server's answer does not follow the protocol.
    case invalidResponse(status: Int, reason: String)
    /// The signaling connection closed before the expected message arrived.
    case closed

    /// One sentence with the cause and what to do.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid rendezvous server URL \"\(url)\": use http://HOST:PORT (ws://HOST:PORT/ for signaling)"
        case .transport(let detail): "could not reach the rendezvous server (\(detail)); check the address and that `kith serve` runs"
        case .notFoundOrExpired: "no such pairing or room, or it expired; create a new join code"
        case .conflict(let code): "the server refused with \(code): the join code is already in use or already accepted"
        case .rateLimited(let seconds): "too many attempts; retry " + (seconds.map { "in \($0) s" } ?? "later")
        case .rejected(let status, let error): "the server refused the request with HTTP \(status)" + (error.map { ": \($0.error)" + ($0.details.map { " (\($0))" } ?? "") } ?? "")
        case .invalidResponse(let status, let reason): "unexpected answer from the rendezvous server (HTTP \(status)): \(reason)"
        case .closed: "the signaling connection closed"
        }
    }
}
