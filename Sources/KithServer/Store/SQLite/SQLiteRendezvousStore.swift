import GRDB
import KithRendezvous

/// The embedded default ``RendezvousStore``: one SQLite file (or memory), no set-up.
///
/// One process owns the file: opening it forgets every signaling membership (the sockets of a
/// previous run are gone). Several nodes need a shared store such as PostgreSQL.
public final class SQLiteRendezvousStore: RendezvousStore {
    let database: DatabaseQueue

    private init(database: DatabaseQueue) { self.database = database }

    /// Opens (creating if needed) the database at `path`, or an in-memory one when nil, applies
    /// the migrations and clears stale memberships.
    public static func open(path: String?) throws(RendezvousStoreError) -> SQLiteRendezvousStore {
        do {
            let queue = try ServerSQLite.open(path: path, migrator: RendezvousSchema.migrator)
            try queue.write { db in try db.execute(sql: "DELETE FROM members") }
            return SQLiteRendezvousStore(database: queue)
        } catch {
            throw .openFailed(path: path ?? ":memory:", reason: "\(error)")
        }
    }

    /// Runs `body` in one write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(RendezvousStoreError) -> Value {
        do {
            return try await database.write(body)
        } catch {
            throw .queryFailed("\(error)")
        }
    }

    // MARK: Live rooms

    /// SQL condition for a live room (alias `rooms`): within its lifetime, or with a member.
    static let liveRoom = "(rooms.expires_at > ? OR EXISTS (SELECT 1 FROM members WHERE members.room_id = rooms.room_id))"

    /// Reads a live room (within its lifetime, or with a member).
    public func room(_ id: RoomID, now: Int64) async throws(RendezvousStoreError) -> RoomInfo? {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT client1, client2 FROM rooms WHERE room_id = ? AND \(Self.liveRoom)", arguments: [id.text, now]),
                  let client1 = DeviceID(row["client1"]), let client2 = DeviceID(row["client2"])
            else { return nil }
            return RoomInfo(roomID: id, client1: client1, client2: client2)
        }
    }

    /// Deletes the room, its memberships (cascade) and its accepted pairing.
    public func deleteRoom(_ id: RoomID) async throws(RendezvousStoreError) -> [MemberAddress] {
        try await write { db in
            let members = try Self.members(db, room: id.text).map(\.address)
            try db.execute(sql: "DELETE FROM rooms WHERE room_id = ?", arguments: [id.text])
            try db.execute(sql: "DELETE FROM pendings WHERE room_id = ?", arguments: [id.text])
            return members
        }
    }

    /// Deletes the rooms, memberships and pairings of the device ids in one transaction.
    public func purge(deviceIDs: [DeviceID]) async throws(RendezvousStoreError) -> PurgeOutcome {
        let ids = Array(Set(deviceIDs.map(\.text)))
        return try await write { db in
            let list = databaseQuestionMarks(count: ids.count)
            let arguments = StatementArguments(ids + ids)
            let roomIDs = try String.fetchAll(db, sql: "SELECT room_id FROM rooms WHERE client1 IN (\(list)) OR client2 IN (\(list))", arguments: arguments)
            var affected: [RoomMembership] = []
            for room in roomIDs {
                guard let id = RoomID(room) else { continue }
                affected += try Self.members(db, room: room).map { RoomMembership(room: id, member: $0.address) }
            }
            try db.execute(sql: "DELETE FROM rooms WHERE client1 IN (\(list)) OR client2 IN (\(list))", arguments: arguments)
            let roomsDeleted = db.changesCount
            try db.execute(sql: "DELETE FROM members WHERE device_id IN (\(list))", arguments: StatementArguments(ids))
            try db.execute(sql: "DELETE FROM pendings WHERE client1 IN (\(list)) OR client2 IN (\(list))", arguments: arguments)
            return PurgeOutcome(roomsDeleted: roomsDeleted, pendingsDeleted: db.changesCount, affectedMembers: affected)
        }
    }

    /// Deletes memberless rooms past their lifetime, then expired and orphaned pairings.
    public func sweep(now: Int64) async throws(RendezvousStoreError) -> SweepOutcome {
        try await write { db in
            try db.execute(sql: "DELETE FROM rooms WHERE expires_at <= ? AND NOT EXISTS (SELECT 1 FROM members WHERE members.room_id = rooms.room_id)", arguments: [now])
            let rooms = db.changesCount
            try db.execute(sql: "DELETE FROM pendings WHERE client2 IS NULL AND expires_at <= ?", arguments: [now])
            var pendings = db.changesCount
            try db.execute(sql: "DELETE FROM pendings WHERE client2 IS NOT NULL AND room_id NOT IN (SELECT room_id FROM rooms)")
            pendings += db.changesCount
            return SweepOutcome(pendingsDeleted: pendings, roomsDeleted: rooms)
        }
    }

    /// The members of a room, oldest first.
    static func members(_ db: Database, room: String) throws -> [RoomMember] {
        try Row.fetchAll(db, sql: "SELECT node_id, client_id, is_initiator FROM members WHERE room_id = ? ORDER BY joined_at, rowid", arguments: [room])
            .compactMap { row in
                guard let client = ClientID(row["client_id"]) else { return nil }
                return RoomMember(address: MemberAddress(node: row["node_id"], client: client), isInitiator: row["is_initiator"])
            }
    }
}
