/// What `POST /api/rooms/check` tells client1 about its pending pairing.
public enum PairingStatus: Sendable, Hashable {
    /// Nobody accepted the code yet (HTTP 204): ask again later.
    case pending
    /// client2 accepted: both can join this room.
    case accepted(RoomID)
}
