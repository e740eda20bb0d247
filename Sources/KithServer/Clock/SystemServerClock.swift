import Foundation

/// The system's real-time clock.
public struct SystemServerClock: ServerClock {
    /// The system clock.
    public init() {}

    /// Milliseconds since the Unix epoch, now.
    public func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
