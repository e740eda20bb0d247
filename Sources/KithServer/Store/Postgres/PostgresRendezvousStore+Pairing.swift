import KithRendezvous
import PostgresNIO

extension PostgresRendezvousStore {
    /// Inserts the pending pairing (the code's row locked first); an expired unaccepted one under the same code is replaced.
    public func createPending(joinCode: JoinCode, client1: DeviceID, presence: PresenceToken?, expiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> CreatePendingOutcome {
        try await transaction { [logger] connection in
            let rows = try await connection.query(
                "SELECT client1, client2, expires_at FROM kith_pendings WHERE join_id = \(joinCode.text) FOR UPDATE", logger: logger)
            for try await (owner, accepter, expiry) in rows.decode((String, String?, Int64).self) {
                if accepter != nil || expiry > now {
                    // The same request again (a retry) answers the first expiry; anyone else is refused.
                    if accepter == nil, SecretComparison.equal(owner, client1.text) { return .created(expiresAt: expiry) }
                    return .joinCodeInUse
                }
                try await connection.query("DELETE FROM kith_pendings WHERE join_id = \(joinCode.text)", logger: logger)
            }
            // Two nodes inserting the same new code at once: the second finds the first's row.
            let inserted = try await Self.count(connection.query(
                """
                INSERT INTO kith_pendings (join_id, client1, created_at, expires_at, client1_token, client1_platform)
                VALUES (\(joinCode.text), \(client1.text), \(now), \(expiresAt), \(presence?.text), \(presence?.platform.rawValue))
                ON CONFLICT (join_id) DO NOTHING RETURNING 1
                """, logger: logger))
            return inserted == 1 ? .created(expiresAt: expiresAt) : .joinCodeInUse
        }
    }

    /// Claims the pairing with `UPDATE … WHERE client2 IS NULL AND expires_at > now` (compare-and-set), then creates the room.
    public func accept(joinCode: JoinCode, client2: DeviceID, presence: PresenceToken?, proposedRoom: RoomID, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> AcceptOutcome {
        try await transaction { [logger] connection in
            let claimed = try await Self.count(connection.query(
                """
                UPDATE kith_pendings SET client2 = \(client2.text), room_id = \(proposedRoom.text), accepted_at = \(now)
                WHERE join_id = \(joinCode.text) AND client2 IS NULL AND expires_at > \(now) RETURNING 1
                """, logger: logger))
            if claimed == 1 {
                try await connection.query(
                    """
                    INSERT INTO kith_rooms (room_id, join_id, client1, client2, created_at, expires_at,
                                            client1_token, client1_platform, client2_token, client2_platform)
                    SELECT room_id, join_id, client1, client2, \(now), \(roomExpiresAt), client1_token, client1_platform,
                           \(presence?.text), \(presence?.platform.rawValue)
                    FROM kith_pendings WHERE join_id = \(joinCode.text)
                    """, logger: logger)
                // The token lives on with the room only.
                try await connection.query(
                    "UPDATE kith_pendings SET client1_token = NULL, client1_platform = NULL WHERE join_id = \(joinCode.text)", logger: logger)
                return .accepted(proposedRoom)
            }
            let rows = try await connection.query("SELECT client2, room_id FROM kith_pendings WHERE join_id = \(joinCode.text)", logger: logger)
            for try await (winner, roomText) in rows.decode((String?, String?).self) {
                guard let winner, let roomText else { return .notFoundOrExpired }
                // The winner asking again (a lost answer) gets its room again; anyone else is refused.
                guard SecretComparison.equal(winner, client2.text) else { return .conflict }
                let live = try await Self.count(connection.query(
                    "SELECT 1 FROM kith_rooms r WHERE room_id = \(roomText) AND (r.expires_at > \(now) OR EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id))",
                    logger: logger))
                guard live == 1, let room = RoomID(roomText) else { return .notFoundOrExpired }
                return .accepted(room)
            }
            return .notFoundOrExpired
        }
    }

    /// Answers from the pending row (deleted once client1 has the room), else from the room created under the code.
    public func check(joinCode: JoinCode, client1: DeviceID, now: Int64) async throws(RendezvousStoreError) -> CheckOutcome {
        try await transaction { [logger] connection in
            let rows = try await connection.query(
                "SELECT client1, client2, expires_at FROM kith_pendings WHERE join_id = \(joinCode.text) FOR UPDATE", logger: logger)
            for try await (owner, accepter, expiry) in rows.decode((String, String?, Int64).self) where SecretComparison.equal(owner, client1.text) {
                if accepter == nil {
                    if expiry > now { return .pending }
                    try await connection.query("DELETE FROM kith_pendings WHERE join_id = \(joinCode.text)", logger: logger)
                    return .notFoundOrExpired
                }
                // client1 now has the room id: the code is free again; the room answers later checks.
                try await connection.query("DELETE FROM kith_pendings WHERE join_id = \(joinCode.text)", logger: logger)
            }
            let rooms = try await connection.query(
                """
                SELECT room_id FROM kith_rooms r WHERE join_id = \(joinCode.text) AND client1 = \(client1.text)
                AND (r.expires_at > \(now) OR EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id))
                ORDER BY created_at DESC LIMIT 1
                """, logger: logger)
            for try await roomText in rooms.decode(String.self) {
                if let room = RoomID(roomText) { return .accepted(room) }
            }
            return .notFoundOrExpired
        }
    }
}
