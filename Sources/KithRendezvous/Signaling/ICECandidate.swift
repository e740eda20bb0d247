import KithCanonical

/// An ICE candidate as WebRTC's `RTCIceCandidateInit` carries it: the `candidate` member of an
/// `ice_candidate` message.
public struct ICECandidate: Sendable, Hashable {
    /// The `a=candidate` line without its `a=` prefix (empty for end-of-candidates).
    public var candidate: String
    /// The media line index, when given.
    public var sdpMLineIndex: Int?
    /// The media stream id, when given.
    public var sdpMid: String?
    /// The ICE username fragment, when given.
    public var usernameFragment: String?

    /// Creates a candidate.
    public init(candidate: String, sdpMLineIndex: Int? = nil, sdpMid: String? = nil, usernameFragment: String? = nil) {
        self.candidate = candidate
        self.sdpMLineIndex = sdpMLineIndex
        self.sdpMid = sdpMid
        self.usernameFragment = usernameFragment
    }

    /// Reads the `candidate` object; other members are dropped.
    init(json value: JSONValue?) throws(RendezvousCodecError) {
        guard case .object(let object)? = value else { throw .invalidField("candidate", reason: "must be an object") }
        let fields = JSONFields(object)
        guard case .string(let line)? = object["candidate"], line.utf8.count <= RendezvousLimits.maximumCandidateBytes else {
            throw .invalidField("candidate", reason: "candidate.candidate must be a string of at most \(RendezvousLimits.maximumCandidateBytes) bytes")
        }
        candidate = line
        do throws(RendezvousCodecError) {
            sdpMLineIndex = try fields.optionalInteger("sdpMLineIndex", in: 0...Int64(RendezvousLimits.maximumSDPMLineIndex)).map(Int.init)
            sdpMid = try fields.optionalString("sdpMid", maximumBytes: RendezvousLimits.maximumCandidateFieldBytes)
            usernameFragment = try fields.optionalString("usernameFragment", maximumBytes: RendezvousLimits.maximumCandidateFieldBytes)
        } catch {
            throw .invalidField("candidate", reason: error.description)
        }
    }

    /// The `candidate` object.
    var json: JSONValue {
        var object: JSONObject = ["candidate": .string(candidate)]
        if let sdpMLineIndex { object["sdpMLineIndex"] = .integer(Int64(sdpMLineIndex)) }
        if let sdpMid { object["sdpMid"] = .string(sdpMid) }
        if let usernameFragment { object["usernameFragment"] = .string(usernameFragment) }
        return .object(object)
    }
}
