import GRDB
import KithRendezvous

extension SQLiteRendezvousStore {
    /// Joins in one transaction: room check, stale same-device member removed (a member's device id only, ``MemberProof``),
    /// capacity, access, previous room left, role by ``RoleRule``.
    public func join(_ request: JoinRequest, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> JoinOutcome {
        try await write { db in
            let roomText = request.room.text
            guard let roomRow = try Row.fetchOne(
                db, sql: "SELECT initiator_device, client1, client2 FROM rooms WHERE room_id = ? AND \(Self.liveRoom)", arguments: [roomText, now])
            else { return .roomNotFound }
            let remembered = (roomRow["initiator_device"] as String?).flatMap(DeviceID.init)
            let access = MemberProof(device: request.device, client1: roomRow["client1"], client2: roomRow["client2"])
            let me = request.member
            let current = try String.fetchOne(db, sql: "SELECT room_id FROM members WHERE node_id = ? AND client_id = ?", arguments: [me.node, me.client.text])
            var members = try Self.members(db, room: roomText)

            if current == roomText, let mine = members.first(where: { $0.address == me }) {
                let peer = members.first { $0.address != me }
                return .joined(JoinedRoom(isInitiator: mine.isInitiator, peer: peer, replaced: nil, previous: nil, alreadyMember: true))
            }

            // A connection of the same device still in the room is a stale socket: it gives way.
            var replaced: MemberAddress?
            if let device = access.device {
                let sameDevice = try Row.fetchOne(
                    db, sql: "SELECT node_id, client_id FROM members WHERE room_id = ? AND device_id = ?", arguments: [roomText, device.text])
                if let sameDevice, let client = ClientID(sameDevice["client_id"]) {
                    let stale = MemberAddress(node: sameDevice["node_id"], client: client)
                    try db.execute(sql: "DELETE FROM members WHERE node_id = ? AND client_id = ?", arguments: [stale.node, stale.client.text])
                    members.removeAll { $0.address == stale }
                    replaced = stale
                }
            }
            guard members.count < RendezvousLimits.roomCapacity else { return .roomFull }
            guard access.admits(rememberedInitiator: remembered) else { return .roomNotFound }

            var previous: RoomDeparture?
            if let current, let left = RoomID(current) {
                try db.execute(sql: "DELETE FROM members WHERE node_id = ? AND client_id = ?", arguments: [me.node, me.client.text])
                try db.execute(sql: "UPDATE rooms SET expires_at = ? WHERE room_id = ?", arguments: [roomExpiresAt, current])
                previous = RoomDeparture(room: left, remaining: try Self.members(db, room: current))
            }

            let peer = members.first
            let isInitiator = RoleRule.isInitiator(device: access.device, rememberedInitiator: remembered, peer: peer)
            let nowRemembered = RoleRule.rememberedInitiator(after: isInitiator, device: access.device, previously: remembered)
            try db.execute(
                sql: "INSERT INTO members (node_id, client_id, room_id, device_id, is_initiator, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [me.node, me.client.text, roomText, access.device?.text, isInitiator, now])
            try db.execute(
                sql: "UPDATE rooms SET expires_at = ?, initiator_device = ? WHERE room_id = ?",
                arguments: [roomExpiresAt, nowRemembered?.text, roomText])
            return .joined(JoinedRoom(isInitiator: isInitiator, peer: peer, replaced: replaced, previous: previous, alreadyMember: false))
        }
    }

    /// Deletes the connection's membership and refreshes the room's lifetime.
    public func leave(_ member: MemberAddress, roomExpiresAt: Int64) async throws(RendezvousStoreError) -> RoomDeparture? {
        try await write { db in
            guard let roomText = try String.fetchOne(
                db, sql: "SELECT room_id FROM members WHERE node_id = ? AND client_id = ?", arguments: [member.node, member.client.text]),
                let room = RoomID(roomText)
            else { return nil }
            try db.execute(sql: "DELETE FROM members WHERE node_id = ? AND client_id = ?", arguments: [member.node, member.client.text])
            try db.execute(sql: "UPDATE rooms SET expires_at = ? WHERE room_id = ?", arguments: [roomExpiresAt, roomText])
            return RoomDeparture(room: room, remaining: try Self.members(db, room: roomText))
        }
    }
}
