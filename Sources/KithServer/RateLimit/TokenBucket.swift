/// One token bucket on millisecond time.
struct TokenBucket: Sendable {
    private(set) var tokens: Double
    private(set) var updatedAt: Int64

    /// A full bucket at `now`.
    init(rule: RateLimitRule, now: Int64) {
        tokens = rule.burst
        updatedAt = now
    }

    /// Takes one token if there is one; otherwise returns the seconds until there will be.
    mutating func take(rule: RateLimitRule, now: Int64) -> RateDecision {
        refill(rule: rule, now: now)
        if tokens >= 1 {
            tokens -= 1
            return .allowed
        }
        let seconds = (1 - tokens) / rule.perSecond
        return .limited(retryAfterSeconds: max(1, Int(seconds.rounded(.up))))
    }

    /// Gives back one token taken by ``take(rule:now:)`` (never above the burst).
    mutating func refund(rule: RateLimitRule, now: Int64) {
        refill(rule: rule, now: now)
        tokens = min(rule.burst, tokens + 1)
    }

    /// Takes `amount` tokens if there are that many (amounts above the burst never pass).
    mutating func take(_ amount: Double, rule: RateLimitRule, now: Int64) -> Bool {
        refill(rule: rule, now: now)
        guard tokens >= amount else { return false }
        tokens -= amount
        return true
    }

    /// Milliseconds until `amount` tokens are there (0 when they are), after a refill at `now`.
    mutating func wait(for amount: Double, rule: RateLimitRule, now: Int64) -> Int64 {
        refill(rule: rule, now: now)
        guard tokens < amount else { return 0 }
        return Int64(((amount - tokens) / rule.perSecond * 1_000).rounded(.up))
    }

    /// True when the bucket would be full at `now` (it then carries no information).
    func isFull(rule: RateLimitRule, now: Int64) -> Bool {
        tokens + Double(max(0, now - updatedAt)) / 1_000 * rule.perSecond >= rule.burst
    }

    private mutating func refill(rule: RateLimitRule, now: Int64) {
        guard now > updatedAt else { return }
        tokens = min(rule.burst, tokens + Double(now - updatedAt) / 1_000 * rule.perSecond)
        updatedAt = now
    }
}
