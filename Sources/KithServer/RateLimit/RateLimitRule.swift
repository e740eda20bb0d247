/// A token-bucket rule: up to ``burst`` events at once, refilled at ``perSecond`` events a second.
public struct RateLimitRule: Sendable, Hashable {
    /// Events allowed back to back (the bucket's size).
    public var burst: Double
    /// Events a second the bucket regains.
    public var perSecond: Double

    /// Creates a rule; `burst` is at least 1 and `perSecond` positive.
    public init(burst: Double, perSecond: Double) {
        self.burst = max(1, burst)
        self.perSecond = max(0.000_001, perSecond)
    }
}
