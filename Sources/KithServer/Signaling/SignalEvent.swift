import KithRendezvous
import NIOCore

/// What one signaling connection tells another (through a ``SignalBus``, possibly across nodes).
///
/// Every event names its room: a connection applies it only while it is in (or joining) that
/// room, so late events from a room it left are dropped.
enum SignalEvent: Sendable {
    /// `peer` entered the room: remember it and pass on `ready` (`room_ready`).
    case peerJoined(peer: MemberAddress, room: RoomID, ready: ServerMessage)
    /// A relayed message from `from`, delivered only if `from` is the current peer.
    case relayed(from: MemberAddress, room: RoomID, message: ServerMessage)
    /// The peer left or disconnected: forget it and pass on `message`.
    case peerGone(room: RoomID, message: ServerMessage)
    /// This connection is no longer in the room (deleted, purged, or replaced by a newer socket
    /// of the same device): forget the room and pass on `message`.
    case removed(room: RoomID, message: ServerMessage)
    /// The peer `from` asked for the blind relay (`relay_start`).
    case relayRequested(from: MemberAddress, room: RoomID)
    /// One binary frame from `from`'s relay, forwarded unread, only while both members are in relay mode.
    case relayFrame(from: MemberAddress, room: RoomID, bytes: ByteBuffer)

    /// The room the event belongs to.
    var room: RoomID {
        switch self {
        case .peerJoined(_, let room, _), .relayed(_, let room, _), .peerGone(let room, _), .removed(let room, _),
             .relayRequested(_, let room), .relayFrame(_, let room, _): room
        }
    }
}
