/// Why a call to a push gateway or push service failed; every case says what to do.
public enum PushClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `http://` or `https://` (or is too long).
    case invalidURL(String)
    /// The server could not be reached or the connection broke.
    case unreachable(url: String, detail: String)
    /// The gateway refused the account's credentials (401).
    case invalidCredentials
    /// The knock's token is unknown, expired or revoked at the contact's gateway (404): drop it, try the next.
    case tokenRejected
    /// Too many requests (429); retry after the given number of seconds when the server said.
    case rateLimited(retryAfterSeconds: Int?)
    /// The server refused the request (another status), with its error body when it sent one.
    case rejected(status: Int, detail: String?)
    /// The answer does not follow the protocol (a missing field, too large, not JSON).
    case invalidResponse(status: Int, reason: String)
    /// A message from the push service does not decrypt with this subscription's keys, or is not a knock.
    case undecryptable(String)

    /// One sentence with the cause and what to do.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid push server URL \"\(url)\": use http://HOST:PORT"
        case .unreachable(let url, let detail): "could not reach the push server at \(url) (\(detail)); check the address and that `kith serve` runs"
        case .invalidCredentials: "the push gateway refused this account's credentials; register again with `kith push register`"
        case .tokenRejected: "the contact's gateway no longer accepts this token (unknown, expired or revoked)"
        case .rateLimited(let seconds): "the push server is rate-limiting; retry " + (seconds.map { "in \($0) s" } ?? "later")
        case .rejected(let status, let detail): "the push server refused the request with HTTP \(status)" + (detail.map { ": \($0)" } ?? "")
        case .invalidResponse(let status, let reason): "unexpected answer from the push server (HTTP \(status)): \(reason)"
        case .undecryptable(let reason): "a push message was dropped: \(reason)"
        }
    }
}
