import Synchronization

/// The outcome of a body run inside a callback that cannot return it, set once.
final class ResultBox<Value: Sendable>: Sendable {
    private let value = Mutex<Result<Value, any Error>?>(nil)

    func set(_ result: Result<Value, any Error>) {
        value.withLock { if $0 == nil { $0 = result } }
    }

    func get() -> Result<Value, any Error>? { value.withLock { $0 } }
}
