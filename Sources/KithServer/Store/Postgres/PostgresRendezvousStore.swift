import KithRendezvous
import Logging
import PostgresNIO

/// The ``RendezvousStore`` shared by several nodes: one PostgreSQL database (postgres-nio).
///
/// Every method is one transaction. The rules that must hold under concurrency hold across nodes too: one accept
/// winner (a compare-and-set `UPDATE`), two members per room (joins and leaves of a room lock its row first). Tables
/// are created on first use under an advisory lock, so nodes may start together. Memberships carry the node id, and a
/// node's memberships are cleared when that node starts again (see ``open(configuration:nodeID:logger:)``).
public final class PostgresRendezvousStore: RendezvousStore {
    let client: PostgresClient
    let logger: Logger
    /// How long one store call may wait for the database (``PostgresCallDeadline``).
    let callDeadline: PostgresCallDeadline
    private let runner: Task<Void, Never>

    private init(client: PostgresClient, logger: Logger, callDeadline: PostgresCallDeadline) {
        self.client = client
        self.logger = logger
        self.callDeadline = callDeadline
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Connects, creates the tables if needed and forgets the memberships an earlier run of `nodeID` left behind.
    ///
    /// `callDeadline` bounds this open and every store call: one that gets no connection and answer from the database in
    /// time fails as ``RendezvousStoreError/queryFailed(_:)`` instead of waiting for the pool to reconnect.
    public static func open(
        configuration: PostgresClient.Configuration, nodeID: String, logger: Logger = Logger(label: "kith.rendezvous.postgres"),
        callDeadline: Duration = .seconds(5)
    ) async throws(RendezvousStoreError) -> PostgresRendezvousStore {
        let store = PostgresRendezvousStore(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger,
            callDeadline: PostgresCallDeadline(limit: callDeadline))
        do {
            try await store.callDeadline.transaction(store.client, logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7460)", logger: logger)
                // Only a database without the tables runs the DDL: CREATE INDEX takes a table lock even when the index
                // exists, which would stall (or deadlock with) the nodes already serving.
                var present = false
                for try await exists in try await connection.query("SELECT to_regclass('kith_members') IS NOT NULL", logger: logger).decode(Bool.self) {
                    present = exists
                }
                if !present {
                    for statement in PostgresRendezvousSchema.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                var upgraded = false
                for try await exists in try await connection.query(
                    PostgresQuery(unsafeSQL: PostgresRendezvousSchema.presenceColumnsPresent), logger: logger).decode(Bool.self) {
                    upgraded = exists
                }
                if !upgraded {
                    for statement in PostgresRendezvousSchema.presenceUpgrade {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                try await connection.query("DELETE FROM kith_members WHERE node_id = \(nodeID)", logger: logger)
            }
        } catch let timeout as PostgresCallDeadline.Exceeded {
            throw .openFailed(path: "postgres", reason: timeout.description)
        } catch {
            throw .openFailed(path: "postgres", reason: String(reflecting: error))
        }
        return store
    }

    /// A client configuration from a `postgres://user[:password]@host[:port]/database` URL (TLS off; for loopback or a
    /// private network).
    public static func configuration(url: String) throws(RendezvousStoreError) -> PostgresClient.Configuration {
        guard let parsed = URLParts(url) else {
            throw .openFailed(path: "postgres", reason: "expected postgres://user[:password]@host[:port]/database")
        }
        return PostgresClient.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.user, password: parsed.password, database: parsed.database, tls: .disable
        )
    }

    /// Runs `body` in one transaction.
    func transaction<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value) async throws(RendezvousStoreError) -> Value {
        do {
            return try await callDeadline.transaction(client, logger: logger, body)
        } catch let timeout as PostgresCallDeadline.Exceeded {
            throw .queryFailed(timeout.description)
        } catch {
            throw .queryFailed(String(reflecting: error))
        }
    }

    // MARK: Rooms

    /// Reads a live room (within its lifetime, or with a member).
    public func room(_ id: RoomID, now: Int64) async throws(RendezvousStoreError) -> RoomInfo? {
        try await transaction { [logger] connection in
            let rows = try await connection.query(
                "SELECT client1, client2 FROM kith_rooms r WHERE room_id = \(id.text) AND (r.expires_at > \(now) OR EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id))",
                logger: logger)
            for try await (first, second) in rows.decode((String, String).self) {
                guard let client1 = DeviceID(first), let client2 = DeviceID(second) else { return nil }
                return RoomInfo(roomID: id, client1: client1, client2: client2)
            }
            return nil
        }
    }

    /// Deletes the room, its memberships (cascade) and its accepted pairing.
    public func deleteRoom(_ id: RoomID) async throws(RendezvousStoreError) -> [MemberAddress] {
        try await transaction { [logger] connection in
            let members = try await Self.members(connection, room: id.text, logger: logger).map(\.address)
            try await connection.query("DELETE FROM kith_rooms WHERE room_id = \(id.text)", logger: logger)
            try await connection.query("DELETE FROM kith_pendings WHERE room_id = \(id.text)", logger: logger)
            return members
        }
    }

    /// Deletes the rooms, memberships and pairings of the device ids in one transaction.
    public func purge(deviceIDs: [DeviceID]) async throws(RendezvousStoreError) -> PurgeOutcome {
        let ids = Array(Set(deviceIDs.map(\.text)))
        return try await transaction { [logger] connection in
            var affected: [RoomMembership] = []
            let rooms = try await connection.query("SELECT room_id FROM kith_rooms WHERE client1 = ANY(\(ids)) OR client2 = ANY(\(ids))", logger: logger)
            var roomIDs: [String] = []
            for try await room in rooms.decode(String.self) { roomIDs.append(room) }
            for room in roomIDs {
                guard let id = RoomID(room) else { continue }
                affected += try await Self.members(connection, room: room, logger: logger).map { RoomMembership(room: id, member: $0.address) }
            }
            let deletedRooms = try await Self.count(connection.query(
                "DELETE FROM kith_rooms WHERE client1 = ANY(\(ids)) OR client2 = ANY(\(ids)) RETURNING 1", logger: logger))
            try await connection.query("DELETE FROM kith_members WHERE device_id = ANY(\(ids))", logger: logger)
            let deletedPendings = try await Self.count(connection.query(
                "DELETE FROM kith_pendings WHERE client1 = ANY(\(ids)) OR client2 = ANY(\(ids)) RETURNING 1", logger: logger))
            return PurgeOutcome(roomsDeleted: deletedRooms, pendingsDeleted: deletedPendings, affectedMembers: affected)
        }
    }

    /// Deletes memberless rooms past their lifetime, then expired and orphaned pairings.
    public func sweep(now: Int64) async throws(RendezvousStoreError) -> SweepOutcome {
        try await transaction { [logger] connection in
            let rooms = try await Self.count(connection.query(
                "DELETE FROM kith_rooms r WHERE r.expires_at <= \(now) AND NOT EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id) RETURNING 1",
                logger: logger))
            var pendings = try await Self.count(connection.query(
                "DELETE FROM kith_pendings WHERE client2 IS NULL AND expires_at <= \(now) RETURNING 1", logger: logger))
            pendings += try await Self.count(connection.query(
                "DELETE FROM kith_pendings WHERE client2 IS NOT NULL AND room_id NOT IN (SELECT room_id FROM kith_rooms) RETURNING 1", logger: logger))
            return SweepOutcome(pendingsDeleted: pendings, roomsDeleted: rooms)
        }
    }

    // MARK: Helpers

    /// The members of a room, oldest first.
    static func members(_ connection: PostgresConnection, room: String, logger: Logger) async throws -> [RoomMember] {
        let rows = try await connection.query(
            "SELECT node_id, client_id, is_initiator FROM kith_members WHERE room_id = \(room) ORDER BY joined_at, seq", logger: logger)
        var members: [RoomMember] = []
        for try await (node, client, initiator) in rows.decode((String, String, Bool).self) {
            if let client = ClientID(client) { members.append(RoomMember(address: MemberAddress(node: node, client: client), isInitiator: initiator)) }
        }
        return members
    }

    /// How many rows a `… RETURNING 1` statement gave.
    static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
