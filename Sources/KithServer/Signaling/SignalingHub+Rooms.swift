import KithRendezvous
import Logging

extension SignalingHub {
    /// `join_room`: enters a REST-created room (leaving the current one), tells the peer.
    func join(_ room: RoomID, device: DeviceID?, on connection: SignalingConnection) async throws(RendezvousStoreError) {
        connection.beginJoin(room)
        let outcome: JoinOutcome
        do throws(RendezvousStoreError) {
            outcome = try await store.join(
                JoinRequest(room: room, member: connection.address, device: device),
                roomExpiresAt: roomExpiry, now: clock.nowMilliseconds())
        } catch {
            connection.finishJoin(room, joined: nil, messages: [])
            throw error
        }
        guard case .joined(let joined) = outcome else {
            let refusal: ServerMessage = outcome == .roomFull
                ? .roomFull(roomID: room, error: SignalingText.roomFull) : .error(SignalingText.roomNotFound)
            return connection.finishJoin(room, joined: nil, messages: [refusal])
        }
        if let previous = joined.previous {
            for member in previous.remaining {
                bus.deliver(.peerGone(room: previous.room, message: .peerLeft(message: SignalingText.peerLeft)), to: member.address)
            }
        }
        if let replaced = joined.replaced {
            bus.deliver(.removed(room: room, message: .leftRoom(roomID: room)), to: replaced)
            if let peer = joined.peer {
                bus.deliver(.peerGone(room: room, message: .peerDisconnected(message: SignalingText.peerDisconnected)), to: peer.address)
            }
        }
        let userCount = joined.peer == nil ? 1 : 2
        var messages: [ServerMessage] = [
            .roomJoined(roomID: room, userCount: userCount, isInitiator: joined.isInitiator, ready: userCount == 2)
        ]
        if let peer = joined.peer {
            messages.append(.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: joined.isInitiator))
            if !joined.alreadyMember {
                let ready = ServerMessage.roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: peer.isInitiator)
                bus.deliver(.peerJoined(peer: connection.address, room: room, ready: ready), to: peer.address)
            }
        }
        connection.finishJoin(room, joined: joined, messages: messages)
        if joined.peer == nil, !joined.alreadyMember {
            // Alone in the room: tell the other phone someone is waiting (Inviso's push on join).
            let presence = presence
            let asker = connection.address
            Task { await presence.pushToPeer(of: asker) }
        }
    }

    /// `leave_room`: leaves the room, tells the peer, confirms with `left_room`.
    func leave(on connection: SignalingConnection) async throws(RendezvousStoreError) {
        guard let departure = try await store.leave(connection.address, roomExpiresAt: roomExpiry) else {
            connection.leaveRoom()
            return connection.send(.leftRoom(roomID: nil))
        }
        for member in departure.remaining {
            bus.deliver(.peerGone(room: departure.room, message: .peerLeft(message: SignalingText.peerLeft)), to: member.address)
        }
        connection.leaveRoom()
        connection.send(.leftRoom(roomID: departure.room))
    }

    /// The socket closed: leave the room and tell the peer `peer_disconnected`.
    func disconnect(_ connection: SignalingConnection, logger: Logger) async {
        do throws(RendezvousStoreError) {
            guard let departure = try await store.leave(connection.address, roomExpiresAt: roomExpiry) else { return }
            for member in departure.remaining {
                bus.deliver(.peerGone(room: departure.room, message: .peerDisconnected(message: SignalingText.peerDisconnected)), to: member.address)
            }
        } catch {
            logger.error("signaling disconnect: store failed", metadata: ["error": "\(error)"])
        }
    }

    /// Tells the connections of a deleted or purged room that it is gone.
    func roomsRemoved(_ memberships: [RoomMembership]) {
        for membership in memberships {
            bus.deliver(.removed(room: membership.room, message: .peerLeft(message: SignalingText.peerLeft)), to: membership.member)
        }
    }
}
