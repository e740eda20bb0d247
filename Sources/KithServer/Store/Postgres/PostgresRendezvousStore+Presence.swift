import KithRendezvous
import PostgresNIO

extension PostgresRendezvousStore {
    /// Reads the asker's membership (its proven device id), the room's sides and tokens, and whether anyone else is in
    /// the room, in one transaction.
    public func presencePeer(of asker: MemberAddress, now: Int64) async throws(RendezvousStoreError) -> PresencePeer? {
        try await transaction { [logger] connection in
            var membership: (room: String, device: String?)?
            let members = try await connection.query(
                "SELECT room_id, device_id FROM kith_members WHERE node_id = \(asker.node) AND client_id = \(asker.client.text)", logger: logger)
            for try await (room, device) in members.decode((String, String?).self) { membership = (room, device) }
            guard let membership, let room = RoomID(membership.room) else { return nil }
            let others = try await Self.count(connection.query(
                """
                SELECT 1 FROM kith_members WHERE room_id = \(membership.room) AND NOT (node_id = \(asker.node) AND client_id = \(asker.client.text))
                """, logger: logger))
            guard others == 0 else { return nil }
            let rows = try await connection.query(
                """
                SELECT client1, client2, client1_token, client1_platform, client2_token, client2_platform FROM kith_rooms r
                WHERE room_id = \(membership.room) AND (r.expires_at > \(now) OR EXISTS (SELECT 1 FROM kith_members m WHERE m.room_id = r.room_id))
                """, logger: logger)
            for try await (client1, client2, text1, platform1, text2, platform2) in rows.decode((String, String, String?, String?, String?, String?).self) {
                let token1 = PresenceRule.token(text: text1, platform: platform1)
                let token2 = PresenceRule.token(text: text2, platform: platform2)
                guard let side = PresenceRule.side(asker: membership.device, client1: client1, client2: client2, token1: token1, token2: token2),
                      let token = side == .client1 ? token1 : token2
                else { return nil }
                return PresencePeer(room: room, side: side, token: token)
            }
            return nil
        }
    }

    /// Nulls the side's token and platform when the side still holds `peer.token`.
    public func forgetPresenceToken(_ peer: PresencePeer) async throws(RendezvousStoreError) {
        try await transaction { [logger] connection -> Void in
            switch peer.side {
            case .client1:
                _ = try await connection.query(
                    """
                    UPDATE kith_rooms SET client1_token = NULL, client1_platform = NULL
                    WHERE room_id = \(peer.room.text) AND client1_token = \(peer.token.text)
                    """, logger: logger)
            case .client2:
                _ = try await connection.query(
                    """
                    UPDATE kith_rooms SET client2_token = NULL, client2_platform = NULL
                    WHERE room_id = \(peer.room.text) AND client2_token = \(peer.token.text)
                    """, logger: logger)
            }
        }
    }
}
