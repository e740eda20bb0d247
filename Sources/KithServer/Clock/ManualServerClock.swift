import Synchronization

/// A clock that only moves when told to: for tests of expiry and rate limits.
public final class ManualServerClock: ServerClock {
    private let milliseconds: Mutex<Int64>

    /// A clock reading `start` milliseconds since the epoch (2025-01-01T00:00:00Z by default).
    public init(start: Int64 = 1_735_689_600_000) { milliseconds = Mutex(start) }

    /// The current reading.
    public func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(seconds: Double) {
        milliseconds.withLock { $0 += Int64(seconds * 1_000) }
    }
}
