import KithCanonical

/// A signaling message a client sends the server.
public enum ClientMessage: Sendable, Hashable {
    /// `join_room {roomId, deviceId?}`: enter a room created over REST. The optional device id
    /// (the client's ephemeral id of that pairing) keeps its role across reconnects.
    case joinRoom(roomID: RoomID, deviceID: DeviceID?)
    /// `leave_room`.
    case leaveRoom
    /// A message for the other member (offer, answer, candidate, key exchange).
    case signal(SignalPayload)
    /// `ping` (answered with `pong`).
    case ping
    /// `relay_start` (Kith): switch to the blind relay; answered with `relay_ready` once both
    /// members of the room asked.
    case relayStart
    /// `ping_peer` (Inviso's push branch): ask for a presence push to the other member of the room while it is
    /// not connected; answered with `ping_sent`.
    case pingPeer

    /// The message type.
    public var type: SignalingMessageType {
        switch self {
        case .joinRoom: .joinRoom
        case .leaveRoom: .leaveRoom
        case .signal(let payload): payload.type
        case .ping: .ping
        case .relayStart: .relayStart
        case .pingPeer: .pingPeer
        }
    }

    /// Decodes one message (the bytes of a text or binary WebSocket message).
    ///
    /// - Throws: ``RendezvousCodecError/invalidJSON(_:)`` or ``RendezvousCodecError/notAnObject``
    ///   for anything but a JSON object within ``RendezvousJSON/signalingLimits``;
    ///   ``RendezvousCodecError/unknownType(_:)`` for a type clients do not send (`undefined`
    ///   when absent); a field error naming the member otherwise.
    public init<Bytes: Collection>(bytes: Bytes) throws(RendezvousCodecError) where Bytes.Element == UInt8 {
        try self.init(json: try RendezvousJSON.parseObject(bytes, limits: RendezvousJSON.signalingLimits))
    }

    /// Decodes one message from its JSON object.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        let typeText: String
        switch object["type"] {
        case .string(let text)?: typeText = text
        default: throw .unknownType("undefined")
        }
        guard let type = SignalingMessageType(rawValue: typeText) else {
            throw .unknownType(String(decoding: typeText.utf8.prefix(RendezvousLimits.maximumMessageTypeBytes), as: UTF8.self))
        }
        switch type {
        case .joinRoom:
            let roomID = try fields.roomID("roomId")
            var deviceID: DeviceID?
            if !fields.isMissing("deviceId") { deviceID = try fields.deviceID("deviceId") }
            self = .joinRoom(roomID: roomID, deviceID: deviceID)
        case .leaveRoom: self = .leaveRoom
        case .ping: self = .ping
        case .relayStart: self = .relayStart
        case .pingPeer: self = .pingPeer
        default:
            guard let payload = try SignalPayload(type: type, fields: fields) else { throw .unknownType(typeText) }
            self = .signal(payload)
        }
    }

    /// The message as a JSON object.
    public var json: JSONObject {
        var object: JSONObject = ["type": .string(type.rawValue)]
        switch self {
        case .joinRoom(let roomID, let deviceID):
            object["roomId"] = .string(roomID.text)
            if let deviceID { object["deviceId"] = .string(deviceID.text) }
        case .signal(let payload): payload.write(into: &object)
        case .leaveRoom, .ping, .relayStart, .pingPeer: break
        }
        return object
    }

    /// The message as compact JSON text.
    public var text: String { RendezvousJSON.text(json) }
}
