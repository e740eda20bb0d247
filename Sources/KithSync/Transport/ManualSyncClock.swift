import Synchronization

/// A clock that only moves when told to: for tests.
public final class ManualSyncClock: SyncClock {
    private let seconds: Mutex<Double>

    /// Creates a clock reading `start`.
    public init(start: Double = 0) { seconds = Mutex(start) }

    /// The current reading.
    public func now() async -> Double { seconds.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}
