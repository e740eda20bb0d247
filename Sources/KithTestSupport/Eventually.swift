/// Waits until `condition` holds, checking it every 10 ms, for at most `seconds`; returns whether it held.
///
/// For states no event announces (a server's connection count, a socket seen closed); where an event exists, wait for
/// the event. The default bound is generous on purpose: the suite runs beside other work on 2 cores, where a state a
/// quiet machine reaches in milliseconds can take seconds. A passing test never waits for the bound.
public func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    while !condition() {
        guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
