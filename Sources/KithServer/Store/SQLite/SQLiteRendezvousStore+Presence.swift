import GRDB
import KithRendezvous

extension SQLiteRendezvousStore {
    /// Reads the asker's membership (its proven device id), the room's sides and tokens, and whether anyone else is in
    /// the room, in one transaction.
    public func presencePeer(of asker: MemberAddress, now: Int64) async throws(RendezvousStoreError) -> PresencePeer? {
        try await write { db in
            guard let member = try Row.fetchOne(
                db, sql: "SELECT room_id, device_id FROM members WHERE node_id = ? AND client_id = ?", arguments: [asker.node, asker.client.text]),
                let room = RoomID(member["room_id"] as String)
            else { return nil }
            let others = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM members WHERE room_id = ? AND NOT (node_id = ? AND client_id = ?)",
                arguments: [room.text, asker.node, asker.client.text]) ?? 0
            guard others == 0, let row = try Row.fetchOne(
                db,
                sql: "SELECT client1, client2, client1_token, client1_platform, client2_token, client2_platform FROM rooms WHERE room_id = ? AND \(Self.liveRoom)",
                arguments: [room.text, now])
            else { return nil }
            let token1 = PresenceRule.token(text: row["client1_token"], platform: row["client1_platform"])
            let token2 = PresenceRule.token(text: row["client2_token"], platform: row["client2_platform"])
            guard let side = PresenceRule.side(asker: member["device_id"], client1: row["client1"], client2: row["client2"], token1: token1, token2: token2),
                  let token = side == .client1 ? token1 : token2
            else { return nil }
            return PresencePeer(room: room, side: side, token: token)
        }
    }

    /// Nulls the side's token and platform when the side still holds `peer.token`.
    public func forgetPresenceToken(_ peer: PresencePeer) async throws(RendezvousStoreError) {
        let side = peer.side.rawValue
        try await write { db in
            try db.execute(
                sql: "UPDATE rooms SET \(side)_token = NULL, \(side)_platform = NULL WHERE room_id = ? AND \(side)_token = ?",
                arguments: [peer.room.text, peer.token.text])
        }
    }
}
