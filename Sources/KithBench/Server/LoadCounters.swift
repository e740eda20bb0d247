import Synchronization

/// Counters shared by the tasks of a load run.
final class LoadCounters: Sendable {
    /// Clients that reached the state the run waits for (connected, room ready).
    let ready = Atomic<Int>(0)
    /// Clients that completed their work.
    let finished = Atomic<Int>(0)
    /// Clients whose connection failed.
    let failed = Atomic<Int>(0)
    /// Set when the measured phase starts.
    let go = Atomic<Bool>(false)
    /// The next work item to take.
    let next = Atomic<Int>(0)
}
