/// Every `type` of Inviso's signaling protocol.
public enum SignalingMessageType: String, Sendable, CaseIterable {
    /// Server → client on connect: `{clientId, server}`.
    case connected
    /// Client → server: `{roomId, deviceId?}`.
    case joinRoom = "join_room"
    /// Server → joiner: `{roomId, userCount, isInitiator, ready}`.
    case roomJoined = "room_joined"
    /// Server → both members when the second joins: `{roomId, message, userCount, isInitiator}`.
    case roomReady = "room_ready"
    /// Server → joiner of a room with two members: `{error, roomId}`.
    case roomFull = "room_full"
    /// Relayed SDP offer: `{sdp}` in, `{from, roomId, sdp}` out.
    case webrtcOffer = "webrtc_offer"
    /// Relayed SDP answer: `{sdp}` in, `{from, roomId, sdp}` out.
    case webrtcAnswer = "webrtc_answer"
    /// Relayed ICE candidate: `{candidate: {candidate, sdpMLineIndex, sdpMid}}`.
    case iceCandidate = "ice_candidate"
    /// Relayed key exchange: `{publicKey?, sessionId?, timestamp?}`.
    case keyExchange = "key_exchange"
    /// Relayed key exchange confirmation: `{sessionId?, timestamp?}`.
    case keyExchangeComplete = "key_exchange_complete"
    /// Client → server: leave the current room.
    case leaveRoom = "leave_room"
    /// Server → leaver: `{roomId}` (`null` when it was in no room).
    case leftRoom = "left_room"
    /// Server → remaining member: `{message}` after the other left.
    case peerLeft = "peer_left"
    /// Server → remaining member: `{message}` after the other's socket closed.
    case peerDisconnected = "peer_disconnected"
    /// Client → server application-level ping (for clients without WebSocket control frames).
    case ping
    /// Server → client answer to `ping`.
    case pong
    /// Server → client: `{error}`.
    case error
    /// Client → server (Kith): switch this connection to the blind relay once the peer does too.
    case relayStart = "relay_start"
    /// Server → client (Kith): `{roomId}`; both members asked for the relay: binary frames now go
    /// to the peer, unread.
    case relayReady = "relay_ready"
    /// Client → server (Inviso's push branch): ask for a presence push to the other member of the room.
    case pingPeer = "ping_peer"
    /// Server → client: the answer to `ping_peer` (whether a push went out or not).
    case pingSent = "ping_sent"
}
