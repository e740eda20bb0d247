import Synchronization

/// A value shared between a test and the closures it hands out.
final class Locked<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

/// Waits (polling, up to `seconds`) until `condition` holds; the server may still be reading an acknowledgement.
/// Bounded generously: on a loaded machine the server can take seconds; a passing test never waits the bound.
func eventually(_ seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
