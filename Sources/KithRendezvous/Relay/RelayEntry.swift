import HummingbirdWSClient
import NIOCore

/// What the entry steps of a relay attempt wait for: a message from the server, the relay starting (with the inbox of
/// its frames), or the end of the wait for the peer (tagged, so a stale wait's end is ignored).
enum RelayControl: Sendable {
    case message(ServerMessage)
    case relayReady(RelayFrameInbox)
    case deadline(RelayEntry.ID)
}

/// The entry steps of one relay attempt: join the room (on a fresh socket), wait for the peer, switch both to the
/// relay.
struct RelayEntry: Sendable {
    /// Tells one entry's deadline from another's.
    struct ID: Sendable, Hashable {
        private let value = UInt64.random(in: 0...UInt64.max)
    }

    private enum Step: Equatable {
        case connecting, joining, waitingForPeer, switching
    }

    let room: RoomID
    let device: DeviceID?
    /// After a drop: a peer that leaves on purpose ends the wait.
    let resuming: Bool
    private var step: Step
    private let id = ID()

    /// An entry on a fresh socket (`fresh`: join the room first) or in the room already (after the peer dropped);
    /// `resuming` after a drop (this device's or the peer's).
    init(room: RoomID, device: DeviceID?, fresh: Bool, resuming: Bool) {
        self.room = room
        self.device = device
        self.resuming = resuming
        step = fresh ? .connecting : .waitingForPeer
    }

    /// Joins the room if needed and switches to the relay; answers this device's role and the attempt's inbox.
    /// `joined` runs when the server confirms the room.
    ///
    /// - Throws: ``RelayError/peerTimeout`` after `wait`, ``RelayError/roomFull``, ``RelayError/refused(_:)``,
    ///   ``RelayError/peerGone`` when the peer leaves on purpose while this device waits for it to come back,
    ///   ``RelayError/closed`` when the socket ends.
    mutating func enter(
        outbound: WebSocketOutboundWriter, control: inout AsyncStream<RelayControl>.Iterator,
        controlInput: AsyncStream<RelayControl>.Continuation, wait: Duration, joined: () -> Void
    ) async throws -> (RelayRole, RelayFrameInbox) {
        let id = id
        let deadline = Task {
            guard (try? await Task.sleep(for: wait)) != nil else { return }
            controlInput.yield(.deadline(id))
        }
        defer { deadline.cancel() }
        var role: RelayRole = .responder
        while let event = await control.next() {
            let message: ServerMessage
            switch event {
            case .deadline(let ended):
                guard ended == id else { continue }
                throw RelayError.peerTimeout
            case .relayReady(let inbox):
                guard step == .switching else { continue }
                return (role, inbox)
            case .message(let received):
                message = received
            }
            switch (step, message) {
            case (.connecting, .connected):
                try await Self.write(.joinRoom(roomID: room, deviceID: device), outbound)
                step = .joining
            case (_, .roomJoined(_, _, let isInitiator, _)):
                role = isInitiator ? .initiator : .responder
                joined()
                if step == .connecting || step == .joining { step = .waitingForPeer }
            case (_, .roomReady(_, _, _, let isInitiator)):
                role = isInitiator ? .initiator : .responder
                try await Self.write(.relayStart, outbound)
                step = .switching
            case (_, .roomFull):
                throw RelayError.roomFull
            case (_, .peerLeft) where resuming:
                // Waiting for a dropped peer: it left on purpose (or the room was deleted), it will not come back.
                throw RelayError.peerGone
            case (_, .peerLeft), (_, .peerDisconnected):
                // The peer may come back within the wait: the relay restarts on its `room_ready`.
                step = .waitingForPeer
            case (_, .error(SignalingText.relayNotReady)):
                // A frame sent while the peer was gone: harmless.
                continue
            case (_, .error(SignalingText.roomNotReady)) where resuming:
                step = .waitingForPeer
            case (_, .error(let text)):
                throw RelayError.refused(text)
            default:
                continue
            }
        }
        throw RelayError.closed
    }

    private static func write(_ message: ClientMessage, _ outbound: WebSocketOutboundWriter) async throws {
        do {
            try await outbound.write(.text(message.text))
        } catch {
            throw RelayError.closed
        }
    }
}
