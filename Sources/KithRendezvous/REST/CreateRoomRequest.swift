import KithCanonical

/// `POST /api/rooms`: client1 offers a pending pairing under a join code
/// (`{"joinid", "client1", "expiresInSeconds"}`, and `claim` for a ``JoinCodeClaim`` code; the Inviso app adds
/// `client1_token` and `platform` for presence pushes).
public struct CreateRoomRequest: Sendable, Hashable {
    /// The join code client2 will type.
    public var joinCode: JoinCode
    /// client1's ephemeral device id.
    public var client1: DeviceID
    /// Seconds until the pairing expires, 1...86400, counted on the server's clock.
    public var expiresInSeconds: Int
    /// The secret a claimed join code commits to (``JoinCodeClaim/claim(of:)``); nil for ordinary codes. A secret: the
    /// server never logs it.
    public var claim: String?
    /// client1's push token for presence pushes (`client1_token` with `platform`); nil: none.
    public var presence: PresenceToken?

    /// Creates a request.
    public init(joinCode: JoinCode, client1: DeviceID, expiresInSeconds: Int, claim: String? = nil, presence: PresenceToken? = nil) {
        self.joinCode = joinCode
        self.client1 = client1
        self.expiresInSeconds = expiresInSeconds
        self.claim = claim
        self.presence = presence
    }

    /// Reads a request body. Missing members are reported first, in Inviso's order (`joinid`,
    /// `client1`, `expiresInSeconds`); `expiresInSeconds` may be an integer or a string of
    /// decimal digits (Inviso parsed it with `parseInt`).
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        for key in ["joinid", "client1", "expiresInSeconds"] where fields.isMissing(key) { throw .missingField(key) }
        joinCode = try fields.joinCode("joinid")
        client1 = try fields.deviceID("client1")
        expiresInSeconds = try Self.seconds(object["expiresInSeconds"])
        switch object["claim"] {
        case nil, .null?: claim = nil
        case .string(let text)? where text.utf8.count <= 128: claim = text
        default: throw .invalidField("claim", reason: "must be a string of at most 128 characters")
        }
        presence = try PresenceToken.read(object, tokenKey: "client1_token")
    }

    private static func seconds(_ value: JSONValue?) throws(RendezvousCodecError) -> Int {
        let range = Int64(RendezvousLimits.minimumExpirySeconds)...Int64(RendezvousLimits.maximumExpirySeconds)
        let number: Int64?
        switch value {
        case .integer(let integer)?: number = integer
        case .string(let text)? where text.utf8.count <= 6 && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }):
            number = Int64(text)
        default: number = nil
        }
        guard let number, range.contains(number) else {
            throw .invalidField("expiresInSeconds", reason: RendezvousErrorCode.expiryDetails)
        }
        return Int(number)
    }

    /// The request body.
    public var json: JSONObject {
        var object: JSONObject = ["joinid": .string(joinCode.text), "client1": .string(client1.text), "expiresInSeconds": .integer(Int64(expiresInSeconds))]
        if let claim { object["claim"] = .string(claim) }
        presence?.write(into: &object, tokenKey: "client1_token")
        return object
    }
}
