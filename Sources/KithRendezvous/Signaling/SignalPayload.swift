import KithCanonical

/// What one peer sends the other through the server: the relayed message types.
///
/// The server checks the bounds of each member and forwards them unchanged; it never interprets
/// an SDP, a candidate or a key.
public enum SignalPayload: Sendable, Hashable {
    /// `webrtc_offer {sdp}`.
    case offer(sdp: String)
    /// `webrtc_answer {sdp}`.
    case answer(sdp: String)
    /// `ice_candidate {candidate}`.
    case iceCandidate(ICECandidate)
    /// `key_exchange {publicKey?, sessionId?, timestamp?}` (Inviso: base64 X25519 key, room id,
    /// milliseconds; Kith accepts integer timestamps only).
    case keyExchange(publicKey: String?, sessionID: String?, timestamp: Int64?)
    /// `key_exchange_complete {sessionId?, timestamp?}`.
    case keyExchangeComplete(sessionID: String?, timestamp: Int64?)

    /// The message type.
    public var type: SignalingMessageType {
        switch self {
        case .offer: .webrtcOffer
        case .answer: .webrtcAnswer
        case .iceCandidate: .iceCandidate
        case .keyExchange: .keyExchange
        case .keyExchangeComplete: .keyExchangeComplete
        }
    }

    /// Reads the members of a relayed message of `type` (nil when `type` is not a relayed type).
    init?(type: SignalingMessageType, fields: JSONFields) throws(RendezvousCodecError) {
        let keyField = RendezvousLimits.maximumKeyExchangeFieldBytes
        switch type {
        case .webrtcOffer: self = .offer(sdp: try fields.string("sdp", maximumBytes: RendezvousLimits.maximumSDPBytes))
        case .webrtcAnswer: self = .answer(sdp: try fields.string("sdp", maximumBytes: RendezvousLimits.maximumSDPBytes))
        case .iceCandidate: self = .iceCandidate(try ICECandidate(json: fields.object["candidate"]))
        case .keyExchange:
            self = .keyExchange(
                publicKey: try fields.optionalString("publicKey", maximumBytes: keyField),
                sessionID: try fields.optionalString("sessionId", maximumBytes: keyField),
                timestamp: try fields.optionalInteger("timestamp", in: 0...JSONLimits.maxSafeInteger))
        case .keyExchangeComplete:
            self = .keyExchangeComplete(
                sessionID: try fields.optionalString("sessionId", maximumBytes: keyField),
                timestamp: try fields.optionalInteger("timestamp", in: 0...JSONLimits.maxSafeInteger))
        default: return nil
        }
    }

    /// Adds the payload's members to `object`.
    func write(into object: inout JSONObject) {
        switch self {
        case .offer(let sdp), .answer(let sdp): object["sdp"] = .string(sdp)
        case .iceCandidate(let candidate): object["candidate"] = candidate.json
        case .keyExchange(let publicKey, let sessionID, let timestamp):
            if let publicKey { object["publicKey"] = .string(publicKey) }
            if let sessionID { object["sessionId"] = .string(sessionID) }
            if let timestamp { object["timestamp"] = .integer(timestamp) }
        case .keyExchangeComplete(let sessionID, let timestamp):
            if let sessionID { object["sessionId"] = .string(sessionID) }
            if let timestamp { object["timestamp"] = .integer(timestamp) }
        }
    }
}
