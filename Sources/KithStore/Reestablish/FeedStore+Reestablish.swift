import GRDB

/// The restored identity's side of re-establishment (docs/CONTINUITY.md section 8): the task list written once at
/// restore and read by every later pass.
extension FeedStore {
    /// Records the tasks of a restore (already recorded ones are kept as they stand, so planning twice changes nothing).
    public func planReestablishment(_ tasks: [ReestablishTask], now: Int64) throws(StoreError) {
        try write { db in
            for task in tasks {
                try db.execute(
                    cached: "INSERT OR IGNORE INTO reestablish_tasks(kind, target, members, state, updated_at, committer) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [task.kind.rawValue, task.target, task.members.joined(separator: " "), task.state.rawValue, now, task.committer]
                )
            }
        }
    }

    /// Every task, in kind and target order.
    public func reestablishTasks() throws(StoreError) -> [ReestablishTask] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT kind, target, members, state, committer FROM reestablish_tasks ORDER BY kind, target").compactMap { row in
                guard let kind = ReestablishTask.Kind(rawValue: row["kind"]), let state = ReestablishTask.State(rawValue: row["state"]) else {
                    return nil
                }
                let members: String = row["members"]
                return ReestablishTask(
                    kind: kind, target: row["target"], members: members.split(separator: " ").map(String.init), state: state, committer: row["committer"])
            }
        }
    }

    /// Sets a task's state outside any other transaction.
    public func setReestablishTask(_ kind: ReestablishTask.Kind, target: String, state: ReestablishTask.State, now: Int64) throws(StoreError) {
        try write { db in try Self.setTask(kind, target: target, state: state, now: now, in: db) }
    }

    static func setTask(_ kind: ReestablishTask.Kind, target: String, state: ReestablishTask.State, now: Int64, in db: Database) throws {
        try db.execute(
            cached: "UPDATE reestablish_tasks SET state = ?, updated_at = ? WHERE kind = ? AND target = ?",
            arguments: [state.rawValue, now, kind.rawValue, target]
        )
    }
}

extension GroupStoreAccess {
    /// Sets a task's state in this transaction (so the message that does the task and its record commit together).
    public func setReestablishTask(_ kind: ReestablishTask.Kind, target: String, state: ReestablishTask.State, now: Int64) throws(StoreError) {
        try StoreError.catching { try FeedStore.setTask(kind, target: target, state: state, now: now, in: db) }
    }
}
