import GRDB
import KithRendezvous

extension SQLiteRendezvousStore {
    /// Inserts the pending pairing; an expired unaccepted one under the same code is replaced first.
    public func createPending(joinCode: JoinCode, client1: DeviceID, presence: PresenceToken?, expiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> CreatePendingOutcome {
        try await write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT client1, client2, expires_at FROM pendings WHERE join_id = ?", arguments: [joinCode.text]) {
                let accepted = (row["client2"] as String?) != nil
                let live = (row["expires_at"] as Int64) > now
                if accepted || live {
                    // The same request again (a retry) answers the first expiry; anyone else is refused.
                    if !accepted, SecretComparison.equal(row["client1"] as String, client1.text) {
                        return .created(expiresAt: row["expires_at"])
                    }
                    return .joinCodeInUse
                }
                try db.execute(sql: "DELETE FROM pendings WHERE join_id = ?", arguments: [joinCode.text])
            }
            try db.execute(
                sql: "INSERT INTO pendings (join_id, client1, created_at, expires_at, client1_token, client1_platform) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [joinCode.text, client1.text, now, expiresAt, presence?.text, presence?.platform.rawValue])
            return .created(expiresAt: expiresAt)
        }
    }

    /// Claims the pairing with `UPDATE … WHERE client2 IS NULL AND expires_at > now` (compare-and-set), then creates the room.
    public func accept(joinCode: JoinCode, client2: DeviceID, presence: PresenceToken?, proposedRoom: RoomID, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> AcceptOutcome {
        try await write { db in
            // Compare-and-set: only a live pairing that nobody accepted yet can be claimed.
            try db.execute(
                sql: "UPDATE pendings SET client2 = ?, room_id = ?, accepted_at = ? WHERE join_id = ? AND client2 IS NULL AND expires_at > ?",
                arguments: [client2.text, proposedRoom.text, now, joinCode.text, now])
            if db.changesCount == 1 {
                try db.execute(
                    sql: """
                        INSERT INTO rooms (room_id, join_id, client1, client2, created_at, expires_at,
                                           client1_token, client1_platform, client2_token, client2_platform)
                        SELECT room_id, join_id, client1, client2, ?, ?, client1_token, client1_platform, ?, ? FROM pendings WHERE join_id = ?
                        """,
                    arguments: [now, roomExpiresAt, presence?.text, presence?.platform.rawValue, joinCode.text])
                // The token lives on with the room only.
                try db.execute(sql: "UPDATE pendings SET client1_token = NULL, client1_platform = NULL WHERE join_id = ?", arguments: [joinCode.text])
                return .accepted(proposedRoom)
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT client2, room_id FROM pendings WHERE join_id = ?", arguments: [joinCode.text]),
                  let winner = row["client2"] as String?, let roomText = row["room_id"] as String?
            else { return .notFoundOrExpired }
            // The winner asking again (a lost answer) gets its room again; anyone else is refused.
            guard SecretComparison.equal(winner, client2.text) else { return .conflict }
            let roomLives = try Bool.fetchOne(db, sql: "SELECT 1 FROM rooms WHERE room_id = ? AND \(Self.liveRoom)", arguments: [roomText, now]) ?? false
            guard roomLives, let room = RoomID(roomText) else { return .notFoundOrExpired }
            return .accepted(room)
        }
    }

    /// Answers from the pending row (deleted once client1 has the room), else from the room created under the code.
    public func check(joinCode: JoinCode, client1: DeviceID, now: Int64) async throws(RendezvousStoreError) -> CheckOutcome {
        try await write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT client1, client2, room_id, expires_at FROM pendings WHERE join_id = ?", arguments: [joinCode.text]),
               SecretComparison.equal(row["client1"] as String, client1.text) {
                if (row["client2"] as String?) == nil {
                    if (row["expires_at"] as Int64) > now { return .pending }
                    try db.execute(sql: "DELETE FROM pendings WHERE join_id = ?", arguments: [joinCode.text])
                    return .notFoundOrExpired
                }
                // client1 now has the room id: the code is free again; the room answers later checks.
                try db.execute(sql: "DELETE FROM pendings WHERE join_id = ?", arguments: [joinCode.text])
            }
            let roomText = try String.fetchOne(
                db,
                sql: "SELECT room_id FROM rooms WHERE join_id = ? AND client1 = ? AND \(Self.liveRoom) ORDER BY created_at DESC LIMIT 1",
                arguments: [joinCode.text, client1.text, now])
            guard let roomText, let room = RoomID(roomText) else { return .notFoundOrExpired }
            return .accepted(room)
        }
    }
}
