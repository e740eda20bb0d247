/// The fixed strings of Inviso's signaling server, byte for byte, plus the few Kith adds for the
/// checks Inviso lacked (`docs/SERVER.md`).
public enum SignalingText {
    /// `server` of `connected`.
    public static let serverName = "WebRTC P2P Signaling Server"
    /// `message` of `room_ready`.
    public static let roomReady = "Both users connected. Ready for WebRTC handshake."
    /// `error` of `room_full`.
    public static let roomFull = "Room is full (max 2 users)"
    /// `message` of `peer_left`.
    public static let peerLeft = "Other user left the room"
    /// `message` of `peer_disconnected`.
    public static let peerDisconnected = "Other user disconnected"

    /// Error: the message is not a JSON object within the limits.
    public static let invalidJSON = "Invalid JSON format"
    /// Error: `ping_peer` from a connection in no room (Inviso's push branch).
    public static let notInARoom = "Not in a room"
    /// Error: `join_room` without a usable `roomId`.
    public static let invalidRoomID = "Invalid roomId"
    /// Error: a relayed message from a connection in no room.
    public static let notInRoom = "Not in a valid room for WebRTC signaling"
    /// Error: a relayed message while the room does not have two members.
    public static let roomNotReady = "Room must have exactly 2 users for WebRTC"
    /// Error (Kith): `join_room` names no live room created over REST.
    public static let roomNotFound = "Room not found"
    /// Error (Kith): the server could not read or write its store; try again.
    public static let serverError = "Server error, try again"
    /// Error (Kith): the connection sends faster than its rate limit; the message was dropped.
    public static let rateLimited = "Rate limit exceeded"
    /// Error (Kith): a binary frame from a connection whose relay is not (or no longer) active.
    public static let relayNotReady = "Relay not active"
    /// Error (Kith): the server stops; a close frame 1001 follows. Reconnect later (or to another node).
    public static let shuttingDown = "Server shutting down"

    /// Error: a `type` the protocol does not define (`undefined` when absent, as Inviso wrote it).
    public static func unknownType(_ type: String) -> String { "Unknown message type: \(type)" }

    /// Error: a member of a known message is missing or malformed (`Invalid sdp`, `Invalid candidate`…).
    public static func invalidField(_ field: String) -> String { "Invalid \(field)" }

    /// The error text a client receives for a message the codec rejected.
    public static func error(for rejection: RendezvousCodecError) -> String {
        switch rejection {
        case .invalidJSON, .notAnObject: invalidJSON
        case .unknownType(let type): unknownType(type)
        case .missingField(let field), .invalidField(let field, _): invalidField(field)
        case .emptyDeviceIDs, .tooManyDeviceIDs, .invalidDeviceIDs: invalidField("deviceIds")
        }
    }
}
