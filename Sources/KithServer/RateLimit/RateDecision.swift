/// Whether one more event fits a rate limit.
public enum RateDecision: Sendable, Hashable {
    /// Go ahead.
    case allowed
    /// Refused; a token returns in this many seconds (at least 1).
    case limited(retryAfterSeconds: Int)
}
