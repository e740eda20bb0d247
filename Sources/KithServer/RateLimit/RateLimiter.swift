import Synchronization

/// Token buckets keyed by a string (a source address, a join code), in this node's memory.
///
/// The table holds at most `maximumKeys` buckets: when full, buckets that have refilled are
/// dropped first, then the least recently used quarter, so memory stays bounded whatever the
/// number of sources.
public final class RateLimiter: Sendable {
    /// The rule every bucket follows.
    public let rule: RateLimitRule
    private let maximumKeys: Int
    private let buckets: Mutex<[String: TokenBucket]>

    /// A limiter applying `rule` to each key, tracking at most `maximumKeys` keys.
    public init(rule: RateLimitRule, maximumKeys: Int = 65_536) {
        self.rule = rule
        self.maximumKeys = max(16, maximumKeys)
        buckets = Mutex([:])
    }

    /// Takes one token from `key`'s bucket.
    public func take(_ key: String, now: Int64) -> RateDecision {
        let rule = rule
        let maximumKeys = maximumKeys
        return buckets.withLock { table in
            if table[key] == nil, table.count >= maximumKeys { Self.prune(&table, rule: rule, now: now, maximumKeys: maximumKeys) }
            var bucket = table[key] ?? TokenBucket(rule: rule, now: now)
            let decision = bucket.take(rule: rule, now: now)
            table[key] = bucket
            return decision
        }
    }

    /// Gives back the token a ``take(_:now:)`` of `key` took, when the event turned out not to count
    /// (a guess that was right). A key no longer tracked has a full bucket already: nothing to do.
    public func refund(_ key: String, now: Int64) {
        let rule = rule
        buckets.withLock { table in
            guard var bucket = table[key] else { return }
            bucket.refund(rule: rule, now: now)
            table[key] = bucket
        }
    }

    /// Keys currently tracked (for tests and metrics).
    public var trackedKeys: Int { buckets.withLock { $0.count } }

    private static func prune(_ table: inout [String: TokenBucket], rule: RateLimitRule, now: Int64, maximumKeys: Int) {
        table = table.filter { !$0.value.isFull(rule: rule, now: now) }
        guard table.count >= maximumKeys else { return }
        let oldest = table.sorted { $0.value.updatedAt < $1.value.updatedAt }.prefix(max(1, table.count / 4))
        for entry in oldest { table[entry.key] = nil }
    }
}
