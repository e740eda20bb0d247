import Foundation

/// The wall clock the providers read for JWT `iat`/`exp`, APNs expirations and token caches.
///
/// Tests inject a fixed or advancing clock to check token reuse and refresh without waiting.
public struct PushClock: Sendable {
    /// The current time in whole seconds since 1970-01-01 UTC.
    public let secondsSince1970: @Sendable () -> Int64

    /// Creates a clock from a function returning seconds since 1970-01-01 UTC.
    public init(secondsSince1970: @escaping @Sendable () -> Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The system clock.
    public static let system = PushClock { Int64(Date().timeIntervalSince1970) }

    /// The current time in whole seconds since 1970-01-01 UTC.
    public func now() -> Int64 { secondsSince1970() }
}
