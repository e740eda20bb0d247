import Synchronization

/// Waits for async work at most a given time: the demo must not hang when a knock never arrives.
public enum Deadline {
    /// Why the wait ended early.
    public struct Exceeded: Error, Sendable, CustomStringConvertible {
        /// The time allowed.
        public let seconds: Double
        /// One sentence.
        public var description: String { "nothing arrived within \(seconds) s" }
    }

    /// Runs `body` in its own task and returns its result, or throws ``Exceeded`` after `seconds` (the task is then
    /// cancelled and left to end on its own).
    public static func run<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let settled = Settled()
        let work = Task { try await body() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Task {
                let result = await work.result
                if settled.claim() { continuation.resume(with: result) }
            }
            Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if settled.claim() {
                    work.cancel()
                    continuation.resume(throwing: Exceeded(seconds: seconds))
                }
            }
        }
    }

    /// A once-only flag.
    final class Settled: Sendable {
        let done = Mutex(false)
        func claim() -> Bool { done.withLock { done in defer { done = true }; return !done } }
    }
}
