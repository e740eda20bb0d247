/// Bounds what a flood of bad join requests costs the creator: each requester may be refused at most
/// ``maxRefusals`` times per ``window`` seconds; after that its requests are dropped unread (no signature recovery,
/// no decryption, no reply) until the window passes. At most ``maxTrackedRequesters`` requesters are tracked; when
/// full, the entry with the oldest window is evicted.
///
/// In memory only: a restart forgets the counts, which costs at most one more window of refusals.
public struct JoinRequestBudget: Sendable {
    /// Refusals allowed per requester per window.
    public let maxRefusals: Int
    /// The window length in seconds.
    public let window: Int64
    /// The most requesters tracked at once.
    public let maxTrackedRequesters: Int

    private var entries: [String: (windowStart: Int64, refusals: Int)] = [:]

    /// A budget (defaults: 5 refusals per requester per hour, 4,096 requesters tracked).
    public init(maxRefusals: Int = 5, window: Int64 = 3_600, maxTrackedRequesters: Int = 4_096) {
        self.maxRefusals = maxRefusals
        self.window = window
        self.maxTrackedRequesters = maxTrackedRequesters
    }

    /// True when a request from `requester` may be examined at `now`.
    public func admits(_ requester: String, now: Int64) -> Bool {
        guard let entry = entries[requester], now - entry.windowStart < window else { return true }
        return entry.refusals < maxRefusals
    }

    /// Records one refusal of `requester` at `now`.
    public mutating func recordRefusal(of requester: String, now: Int64) {
        if var entry = entries[requester], now - entry.windowStart < window {
            entry.refusals += 1
            entries[requester] = entry
            return
        }
        if entries[requester] == nil, entries.count >= maxTrackedRequesters,
           let oldest = entries.min(by: { $0.value.windowStart < $1.value.windowStart })?.key {
            entries[oldest] = nil
        }
        entries[requester] = (now, 1)
    }
}
