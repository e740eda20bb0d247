import Dispatch
import Synchronization

/// Runs async work to completion from synchronous code.
///
/// For the entry points of command-line executables (`kith`, `kith-bench`) only: it blocks the
/// calling thread, so never call it from async code or from a cooperative-pool thread.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    guard let outcome = result.withLock({ $0 }) else { throw KithError.invalidInput("the operation did not finish") }
    return try outcome.get()
}
