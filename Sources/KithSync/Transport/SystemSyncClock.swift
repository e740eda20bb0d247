/// The process's monotonic clock.
public struct SystemSyncClock: SyncClock {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is the moment of creation.
    public init() {}

    /// Seconds since creation.
    public func now() async -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
