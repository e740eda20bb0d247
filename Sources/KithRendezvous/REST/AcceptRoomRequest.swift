import KithCanonical

/// `POST /api/rooms/accept`: client2 claims a pending pairing by its join code
/// (`{"joinid", "client2"}`; the Inviso app adds `client2_token` and `platform` for presence pushes).
public struct AcceptRoomRequest: Sendable, Hashable {
    /// The join code client1 shared.
    public var joinCode: JoinCode
    /// client2's ephemeral device id.
    public var client2: DeviceID
    /// client2's push token for presence pushes (`client2_token` with `platform`); nil: none.
    public var presence: PresenceToken?

    /// Creates a request.
    public init(joinCode: JoinCode, client2: DeviceID, presence: PresenceToken? = nil) {
        self.joinCode = joinCode
        self.client2 = client2
        self.presence = presence
    }

    /// Reads a request body (missing members first, in the order `joinid`, `client2`).
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        for key in ["joinid", "client2"] where fields.isMissing(key) { throw .missingField(key) }
        joinCode = try fields.joinCode("joinid")
        client2 = try fields.deviceID("client2")
        presence = try PresenceToken.read(object, tokenKey: "client2_token")
    }

    /// The request body.
    public var json: JSONObject {
        var object: JSONObject = ["joinid": .string(joinCode.text), "client2": .string(client2.text)]
        presence?.write(into: &object, tokenKey: "client2_token")
        return object
    }
}
