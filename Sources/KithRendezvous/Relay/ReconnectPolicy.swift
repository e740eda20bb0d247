/// When a relay client tries again after its signaling socket dropped: exponential backoff with
/// jitter, bounded in attempts and in total time, so a dead server is given up with a clear
/// message instead of being hammered or waited for forever.
///
/// The delay before attempt `n` (1 for the first retry) is drawn uniformly from the upper half of
/// `min(initialDelay × 2^(n-1), maximumDelay)`, so two clients that dropped together spread out.
/// A pure value: ``delay(beforeAttempt:elapsed:using:)`` reads only its arguments.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The base delay before the first retry.
    public var initialDelay: Duration
    /// The largest base delay (the doubling stops here).
    public var maximumDelay: Duration
    /// The most retries after one drop.
    public var maximumAttempts: Int
    /// The longest time spent retrying after one drop, delays included.
    public var maximumTotal: Duration

    /// Kith's default: 0.5 s doubling to a 30 s cap, at most 10 attempts within 2 minutes.
    public static let standard = ReconnectPolicy()

    /// Creates a policy (the defaults are ``standard``).
    public init(
        initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), maximumAttempts: Int = 10,
        maximumTotal: Duration = .seconds(120)
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.maximumTotal = maximumTotal
    }

    /// The base delay of `attempt` (1-based) before jitter: doubled per attempt, capped.
    public func baseDelay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        var step = 1
        while step < attempt && delay < maximumDelay {
            delay *= 2
            step += 1
        }
        return min(delay, maximumDelay)
    }

    /// How long to wait before `attempt` (1-based), `elapsed` after the drop; nil when the policy gives up (too many
    /// attempts, or the wait would end past ``maximumTotal``).
    public func delay(beforeAttempt attempt: Int, elapsed: Duration, using generator: inout some RandomNumberGenerator) -> Duration? {
        guard attempt >= 1, attempt <= maximumAttempts else { return nil }
        let base = baseDelay(beforeAttempt: attempt)
        // 53 random bits as a fraction in [0, 1): one draw, no rejection loop.
        let unit = Double(generator.next() >> 11) * 0x1p-53
        let delay = base * (0.5 + unit / 2)
        guard elapsed + delay <= maximumTotal else { return nil }
        return delay
    }
}
