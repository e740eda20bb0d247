/// Bounds of the store (spec 9.3 and Kith's own; docs/FEED-FORMAT.md section 7 rules 10–11).
///
/// Entries that cannot be authenticated (later-version envelopes: no signature this version can
/// check) have bounds of their own and never count against, nor displace, authenticated ones.
public struct StoreLimits: Sendable {
    /// Most signed entries (envelopes, self stubs) held ahead of a gap per feed (`pending_limit`).
    public var maxPendingPerFeed: Int
    /// Most later-version entries held ahead of a gap per feed; beyond it the oldest are evicted.
    public var maxUnauthenticatedPendingPerFeed: Int
    /// Most later-version envelopes kept for relay per feed id (the oldest unlinked ones are evicted).
    public var maxForeignEnvelopesPerFeed: Int
    /// Most later-version envelopes kept for relay in all (the oldest unlinked ones are evicted).
    public var maxForeignEnvelopes: Int
    /// Most bytes of entries one fork switch reads into memory: the branch it drops (a larger one is refused) and the
    /// recorded evidence it may adopt from (read oldest first up to this). A contact writes both, so both are bounded.
    public var maxForkSwitchBytes: Int

    /// Creates limits.
    public init(
        maxPendingPerFeed: Int = 10_000,
        maxUnauthenticatedPendingPerFeed: Int = 1_000,
        maxForeignEnvelopesPerFeed: Int = 1_000,
        maxForeignEnvelopes: Int = 100_000,
        maxForkSwitchBytes: Int = 64 << 20
    ) {
        self.maxForkSwitchBytes = maxForkSwitchBytes
        self.maxPendingPerFeed = maxPendingPerFeed
        self.maxUnauthenticatedPendingPerFeed = maxUnauthenticatedPendingPerFeed
        self.maxForeignEnvelopesPerFeed = maxForeignEnvelopesPerFeed
        self.maxForeignEnvelopes = maxForeignEnvelopes
    }
}
