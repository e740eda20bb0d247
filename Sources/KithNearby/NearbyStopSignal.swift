import Synchronization

/// The end of a ``NearbySync`` run's discovery window, set once (by the deadline or by ``NearbySync/stop()``); waits
/// that belong to the window (between beacons, a dial's grace) end with it instead of running their full length.
final class NearbyStopSignal: Sendable {
    private struct State {
        var stopped = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// True once the window is over.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Ends the window and wakes every waiter (again: nothing).
    func stop() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.stopped else { return [] }
            state.stopped = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits `seconds`, or less when the window ends first (or the task is cancelled).
    func sleep(seconds: Double) async {
        await sleep(until: ContinuousClock.now + .seconds(seconds))
    }

    /// Waits until `deadline`, or less when the window ends first (or the task is cancelled).
    func sleep(until deadline: ContinuousClock.Instant) async {
        guard !isStopped else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(until: deadline) }
            group.addTask { await self.waitUntilStopped() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Returns once the window is over, or at once when the task is cancelled.
    private func waitUntilStopped() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.stopped || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
