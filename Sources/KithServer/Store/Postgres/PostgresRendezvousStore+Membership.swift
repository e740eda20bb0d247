import KithRendezvous
import PostgresNIO

extension PostgresRendezvousStore {
    /// Joins in one transaction with the room's row locked (two nodes cannot both fill its last place): room check,
    /// stale same-device member removed (a member's device id only, ``MemberProof``), capacity, access, previous room left,
    /// role by ``RoleRule``.
    public func join(_ request: JoinRequest, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> JoinOutcome {
        try await transaction { [logger] connection in
            let roomText = request.room.text
            var access: MemberProof?
            var remembered: DeviceID?
            let rows = try await connection.query(
                """
                SELECT initiator_device, client1, client2 FROM kith_rooms r WHERE room_id = \(roomText)
                AND (r.expires_at > \(now) OR EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id)) FOR UPDATE
                """, logger: logger)
            for try await (initiator, client1, client2) in rows.decode((String?, String, String).self) {
                access = MemberProof(device: request.device, client1: client1, client2: client2)
                remembered = initiator.flatMap(DeviceID.init)
            }
            guard let access else { return .roomNotFound }
            let me = request.member
            var current: String?
            for try await room in try await connection.query(
                "SELECT room_id FROM kith_members WHERE node_id = \(me.node) AND client_id = \(me.client.text)", logger: logger
            ).decode(String.self) { current = room }
            var members = try await Self.members(connection, room: roomText, logger: logger)

            if current == roomText, let mine = members.first(where: { $0.address == me }) {
                let peer = members.first { $0.address != me }
                return .joined(JoinedRoom(isInitiator: mine.isInitiator, peer: peer, replaced: nil, previous: nil, alreadyMember: true))
            }

            // A connection of the same device still in the room is a stale socket: it gives way.
            var replaced: MemberAddress?
            if let device = access.device {
                for try await (node, clientText) in try await connection.query(
                    "SELECT node_id, client_id FROM kith_members WHERE room_id = \(roomText) AND device_id = \(device.text)", logger: logger
                ).decode((String, String).self) {
                    guard let client = ClientID(clientText) else { continue }
                    replaced = MemberAddress(node: node, client: client)
                }
                if let stale = replaced {
                    try await connection.query("DELETE FROM kith_members WHERE node_id = \(stale.node) AND client_id = \(stale.client.text)", logger: logger)
                    members.removeAll { $0.address == stale }
                }
            }
            guard members.count < RendezvousLimits.roomCapacity else { return .roomFull }
            guard access.admits(rememberedInitiator: remembered) else { return .roomNotFound }

            var previous: RoomDeparture?
            if let current, let left = RoomID(current) {
                try await connection.query("DELETE FROM kith_members WHERE node_id = \(me.node) AND client_id = \(me.client.text)", logger: logger)
                try await connection.query("UPDATE kith_rooms SET expires_at = \(roomExpiresAt) WHERE room_id = \(current)", logger: logger)
                previous = RoomDeparture(room: left, remaining: try await Self.members(connection, room: current, logger: logger))
            }

            let peer = members.first
            let isInitiator = RoleRule.isInitiator(device: access.device, rememberedInitiator: remembered, peer: peer)
            let nowRemembered = RoleRule.rememberedInitiator(after: isInitiator, device: access.device, previously: remembered)
            try await connection.query(
                """
                INSERT INTO kith_members (node_id, client_id, room_id, device_id, is_initiator, joined_at)
                VALUES (\(me.node), \(me.client.text), \(roomText), \(access.device?.text), \(isInitiator), \(now))
                """, logger: logger)
            try await connection.query(
                "UPDATE kith_rooms SET expires_at = \(roomExpiresAt), initiator_device = \(nowRemembered?.text) WHERE room_id = \(roomText)", logger: logger)
            return .joined(JoinedRoom(isInitiator: isInitiator, peer: peer, replaced: replaced, previous: previous, alreadyMember: false))
        }
    }

    /// Deletes the connection's membership (its room's row locked) and refreshes the room's lifetime.
    public func leave(_ member: MemberAddress, roomExpiresAt: Int64) async throws(RendezvousStoreError) -> RoomDeparture? {
        try await transaction { [logger] connection in
            var roomText: String?
            for try await room in try await connection.query(
                "SELECT room_id FROM kith_members WHERE node_id = \(member.node) AND client_id = \(member.client.text)", logger: logger
            ).decode(String.self) { roomText = room }
            guard let roomText, let room = RoomID(roomText) else { return nil }
            try await connection.query("SELECT 1 FROM kith_rooms WHERE room_id = \(roomText) FOR UPDATE", logger: logger)
            try await connection.query("DELETE FROM kith_members WHERE node_id = \(member.node) AND client_id = \(member.client.text)", logger: logger)
            try await connection.query("UPDATE kith_rooms SET expires_at = \(roomExpiresAt) WHERE room_id = \(roomText)", logger: logger)
            return RoomDeparture(room: room, remaining: try await Self.members(connection, room: roomText, logger: logger))
        }
    }
}
