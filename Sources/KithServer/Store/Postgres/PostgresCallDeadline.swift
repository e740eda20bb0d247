import Logging
import PostgresNIO

/// The longest a store call may wait for PostgreSQL before it fails.
///
/// While the database is unreachable, postgres-nio's pool keeps a lease request waiting while it
/// reconnects with growing backoff: without a deadline the first requests to a node hung for tens of
/// seconds (`/health` answered after 67 s in the fault harness, docs/SERVER.md "Faults and load").
/// With it, a call that gets no connection and answer in time is cancelled (which withdraws its
/// lease request) and fails as a store error, so the route answers 500 or 503 at once.
struct PostgresCallDeadline: Sendable {
    /// How long a call may take.
    let limit: Duration

    /// The call timed out.
    struct Exceeded: Error, CustomStringConvertible {
        let limit: Duration
        var description: String { "no answer from PostgreSQL within \(limit.components.seconds) s" }
    }

    private enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case timedOut
    }

    /// Runs `body` in a transaction of `client`, cancelled after ``limit``.
    ///
    /// - Throws: ``Exceeded`` on time-out, else what the transaction threw.
    func transaction<Value: Sendable>(
        _ client: PostgresClient, logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let limit = limit
        return try await withThrowingTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask { .finished(try await client.withTransaction(logger: logger) { connection in try await body(connection) }) }
            group.addTask {
                try await Task.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw Exceeded(limit: limit) }
            switch first {
            case .finished(let value): return value
            case .timedOut: throw Exceeded(limit: limit)
            }
        }
    }
}
