/// Bounds what strangers holding an invite can make its creator do (docs/INVITES.md, "Joiners who never met the
/// creator"): at most ``maxConcurrent`` invite exchanges at once and at most ``maxStartsPerWindow`` started per
/// ``window`` seconds, whoever asks. A stranger can make a fresh key for every attempt, so per-key budgets alone
/// would not bound the creator's work; this gate does, before any handshake cryptography.
///
/// In memory only; a restart forgets the counts.
public struct StrangerExchangeGate: Sendable {
    /// Exchanges running at once.
    public let maxConcurrent: Int
    /// Exchanges started per window.
    public let maxStartsPerWindow: Int
    /// The window length in seconds.
    public let window: Int64

    private var active = 0
    private var windowStart: Int64 = .min
    private var starts = 0

    /// A gate (defaults: 2 at once, 30 per minute).
    public init(maxConcurrent: Int = 2, maxStartsPerWindow: Int = 30, window: Int64 = 60) {
        self.maxConcurrent = maxConcurrent
        self.maxStartsPerWindow = maxStartsPerWindow
        self.window = window
    }

    /// Exchanges running now.
    public var running: Int { active }

    /// Starts an exchange at `now` when the bounds allow it; false otherwise (the caller closes the connection).
    public mutating func begin(now: Int64) -> Bool {
        if windowStart == .min || now - windowStart >= window || now < windowStart {
            windowStart = now
            starts = 0
        }
        guard active < maxConcurrent, starts < maxStartsPerWindow else { return false }
        active += 1
        starts += 1
        return true
    }

    /// Ends an exchange started by ``begin(now:)``.
    public mutating func end() {
        if active > 0 { active -= 1 }
    }
}
