/// The server's wall clock in milliseconds since the Unix epoch: pairing and room expiry and rate
/// limits read it, so tests inject a ``ManualServerClock``.
public protocol ServerClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}
