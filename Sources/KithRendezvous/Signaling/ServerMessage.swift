import KithCanonical

/// A signaling message the server sends a client.
public enum ServerMessage: Sendable, Hashable {
    /// `connected {clientId, server}`: the first message on every connection.
    case connected(clientID: ClientID, server: String)
    /// `room_joined {roomId, userCount, isInitiator, ready}`.
    case roomJoined(roomID: RoomID, userCount: Int, isInitiator: Bool, ready: Bool)
    /// `room_ready {roomId, message, userCount, isInitiator}`: sent to both members.
    case roomReady(roomID: RoomID, message: String, userCount: Int, isInitiator: Bool)
    /// `room_full {error, roomId}`.
    case roomFull(roomID: RoomID, error: String)
    /// A relayed `webrtc_offer`, `webrtc_answer`, `ice_candidate`, `key_exchange` or
    /// `key_exchange_complete` with `from` and `roomId`.
    case relayed(RelayedSignal)
    /// `left_room {roomId}` (`roomId` is `null` when the client was in no room).
    case leftRoom(roomID: RoomID?)
    /// `peer_left {message}`.
    case peerLeft(message: String)
    /// `peer_disconnected {message}`.
    case peerDisconnected(message: String)
    /// `pong`.
    case pong
    /// `error {error}`.
    case error(String)
    /// `relay_ready {roomId}` (Kith): both members asked for the relay; binary frames are now
    /// forwarded to the peer.
    case relayReady(roomID: RoomID)
    /// `ping_sent` (Inviso's push branch): the answer to `ping_peer`.
    case pingSent

    /// The message type.
    public var type: SignalingMessageType {
        switch self {
        case .connected: .connected
        case .roomJoined: .roomJoined
        case .roomReady: .roomReady
        case .roomFull: .roomFull
        case .relayed(let signal): signal.payload.type
        case .leftRoom: .leftRoom
        case .peerLeft: .peerLeft
        case .peerDisconnected: .peerDisconnected
        case .pong: .pong
        case .error: .error
        case .relayReady: .relayReady
        case .pingSent: .pingSent
        }
    }

    /// The message as a JSON object, with Inviso's member names.
    public var json: JSONObject {
        var object: JSONObject = ["type": .string(type.rawValue)]
        switch self {
        case .connected(let clientID, let server):
            object["clientId"] = .string(clientID.text)
            object["server"] = .string(server)
        case .roomJoined(let roomID, let userCount, let isInitiator, let ready):
            object["roomId"] = .string(roomID.text)
            object["userCount"] = .integer(Int64(userCount))
            object["isInitiator"] = .bool(isInitiator)
            object["ready"] = .bool(ready)
        case .roomReady(let roomID, let message, let userCount, let isInitiator):
            object["roomId"] = .string(roomID.text)
            object["message"] = .string(message)
            object["userCount"] = .integer(Int64(userCount))
            object["isInitiator"] = .bool(isInitiator)
        case .roomFull(let roomID, let error):
            object["error"] = .string(error)
            object["roomId"] = .string(roomID.text)
        case .relayed(let signal):
            object["from"] = .string(signal.from.text)
            object["roomId"] = .string(signal.roomID.text)
            signal.payload.write(into: &object)
        case .leftRoom(let roomID):
            object["roomId"] = roomID.map { .string($0.text) } ?? .null
        case .peerLeft(let message), .peerDisconnected(let message):
            object["message"] = .string(message)
        case .pong, .pingSent: break
        case .error(let text):
            object["error"] = .string(text)
        case .relayReady(let roomID):
            object["roomId"] = .string(roomID.text)
        }
        return object
    }

    /// The message as compact JSON text.
    public var text: String { RendezvousJSON.text(json) }
}
