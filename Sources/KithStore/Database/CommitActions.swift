import Synchronization

/// Work to run once a store transaction has committed, and never when it rolls back: keeping in memory what the
/// transaction wrote (a group's restored state).
///
/// Not GRDB's `afterNextTransaction`: that registers a transaction observer for the transaction, and adding or
/// removing an observer drops every cached statement that deletes rows from the connection's statement caches, so
/// every transaction that kept a cache this way prepared its `DELETE` statements again.
public final class CommitActions: Sendable {
    private let actions = Mutex<[@Sendable () -> Void]>([])

    init() {}

    /// Adds `action`, run after the commit in the order added.
    func add(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    /// Runs the actions added (after the transaction committed); each runs once.
    func run() {
        for action in actions.withLock({ pending in defer { pending = [] }; return pending }) { action() }
    }
}
