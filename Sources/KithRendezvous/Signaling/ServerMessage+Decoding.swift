import KithCanonical

extension ServerMessage {
    /// Decodes one message from the server (for clients).
    ///
    /// - Throws: ``RendezvousCodecError`` for anything but a known server message within
    ///   ``RendezvousJSON/signalingLimits``.
    public init<Bytes: Collection>(bytes: Bytes) throws(RendezvousCodecError) where Bytes.Element == UInt8 {
        try self.init(json: try RendezvousJSON.parseObject(bytes, limits: RendezvousJSON.signalingLimits))
    }

    /// Decodes one message from its JSON object.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        guard case .string(let typeText)? = object["type"], let type = SignalingMessageType(rawValue: typeText) else {
            throw .unknownType(object["type"]?.stringValue ?? "undefined")
        }
        let textLimit = RendezvousLimits.maximumSignalingMessageBytes
        let counts = Int64(0)...Int64(RendezvousLimits.roomCapacity)
        switch type {
        case .connected:
            let text = try fields.string("clientId", maximumBytes: RendezvousLimits.maximumDeviceIDLength)
            guard let clientID = ClientID(text) else { throw .invalidField("clientId", reason: "must be visible ASCII") }
            self = .connected(clientID: clientID, server: try fields.optionalString("server", maximumBytes: textLimit) ?? "")
        case .roomJoined:
            self = .roomJoined(
                roomID: try fields.roomID("roomId"), userCount: Int(try fields.integer("userCount", in: counts)),
                isInitiator: try fields.bool("isInitiator"), ready: try fields.bool("ready"))
        case .roomReady:
            self = .roomReady(
                roomID: try fields.roomID("roomId"), message: try fields.optionalString("message", maximumBytes: textLimit) ?? "",
                userCount: Int(try fields.integer("userCount", in: counts)), isInitiator: try fields.bool("isInitiator"))
        case .roomFull:
            self = .roomFull(roomID: try fields.roomID("roomId"), error: try fields.optionalString("error", maximumBytes: textLimit) ?? "")
        case .leftRoom:
            self = .leftRoom(roomID: fields.isMissing("roomId") ? nil : try fields.roomID("roomId"))
        case .peerLeft: self = .peerLeft(message: try fields.optionalString("message", maximumBytes: textLimit) ?? "")
        case .peerDisconnected: self = .peerDisconnected(message: try fields.optionalString("message", maximumBytes: textLimit) ?? "")
        case .pong: self = .pong
        case .error: self = .error(try fields.optionalString("error", maximumBytes: textLimit) ?? "")
        case .relayReady: self = .relayReady(roomID: try fields.roomID("roomId"))
        case .pingSent: self = .pingSent
        case .joinRoom, .leaveRoom, .ping, .relayStart, .pingPeer: throw .unknownType(typeText)
        default:
            let fromText = try fields.string("from", maximumBytes: RendezvousLimits.maximumDeviceIDLength)
            guard let from = ClientID(fromText) else { throw .invalidField("from", reason: "must be visible ASCII") }
            let roomID = try fields.roomID("roomId")
            guard let payload = try SignalPayload(type: type, fields: fields) else { throw .unknownType(typeText) }
            self = .relayed(RelayedSignal(from: from, roomID: roomID, payload: payload))
        }
    }
}
