/// A source of monotonic time in seconds, injected wherever sync logic needs "now".
public protocol SyncClock: Sendable {
    /// Seconds since an arbitrary fixed origin.
    func now() async -> Double
}
