import Dispatch

/// The one place the facade runs blocking work (SQLite transactions, scrypt, file I/O): on a
/// dedicated dispatch queue, never on Swift's cooperative pool, resuming the caller through a
/// continuation when the work returns. No thread waits on a semaphore.
enum BlockingWork {
    /// The queue blocking facade work runs on (concurrent: the store serializes its own writes).
    static let queue = DispatchQueue(label: "kith.facade.blocking", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on ``queue`` and returns its result (or its typed error) to the awaiting task.
    static func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
