/// Why the server refused a request or a signaling message: the `reason` label of
/// `kith_rejections_total`.
public enum RejectionReason: String, Sendable, CaseIterable {
    /// A REST or signaling rate limit (429, or a dropped signaling message).
    case rateLimit = "rate_limit"
    /// A REST body over its limit (413).
    case bodyTooLarge = "body_too_large"
    /// A REST request the codec refused (400).
    case badRequest = "bad_request"
    /// A join code already in use, or an accept that lost the race (409).
    case conflict
    /// An unknown or expired join code or room, an unknown route (404).
    case notFound = "not_found"
    /// One of Inviso's retired endpoints (410).
    case gone
    /// Any other refused REST request (405 and other 4xx).
    case otherClientError = "other_client_error"
    /// The store failed (500).
    case storeError = "store_error"
    /// A signaling message that is not one of the protocol's (`Invalid JSON format`, `Unknown message type`…).
    case badMessage = "bad_message"
    /// A signaling frame over the size limit (1009) or a WebSocket protocol violation.
    case frameRejected = "frame_rejected"
    /// A connection refused because the node holds its maximum (1013).
    case serverFull = "server_full"
    /// A connection closed because it did not read its messages (1008).
    case slowConsumer = "slow_consumer"
    /// A TCP connection closed at accept because its source (an IPv4 address, an IPv6 /64) holds
    /// its share of connections, or a signaling connection refused (1013) because its source
    /// already holds one and the node's remaining slots are kept for other sources.
    case sourceFull = "source_full"
    /// An HTTP request that did not arrive whole in time (408, connection closed).
    case requestTimeout = "request_timeout"

    /// The reason of a REST refusal with `status`.
    static func rest(status: Int) -> RejectionReason {
        switch status {
        case 429: .rateLimit
        case 413: .bodyTooLarge
        case 400: .badRequest
        case 409: .conflict
        case 404: .notFound
        case 410: .gone
        case 500...: .storeError
        default: .otherClientError
        }
    }
}
