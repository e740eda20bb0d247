import GRDB
import Synchronization

/// Counts the SQL statements a store runs (``FeedStore/countStatements()``): benchmarks use it
/// to show how many queries a sync session costs.
public final class StatementCounter: Sendable {
    private let counted = Atomic<Int>(0)

    /// Statements run since counting started.
    public var count: Int { counted.load(ordering: .relaxed) }

    fileprivate func add() { counted.add(1, ordering: .relaxed) }
}

extension FeedStore {
    /// Starts counting every SQL statement this store runs (replacing any counter started
    /// before); ``stopCountingStatements()`` ends it. For benchmarks and diagnostics.
    public func countStatements() -> StatementCounter {
        let counter = StatementCounter()
        database.inDatabase { db in db.trace { _ in counter.add() } }
        return counter
    }

    /// Stops counting statements.
    public func stopCountingStatements() {
        database.inDatabase { db in db.trace(nil) }
    }
}
