import KithCanonical

/// `POST /api/rooms/accept`: client2 claims a pending pairing by its join code
/// (`{"joinid", "client2"}`).
public struct AcceptRoomRequest: Sendable, Hashable {
    /// The join code client1 shared.
    public var joinCode: JoinCode
    /// client2's ephemeral device id.
    public var client2: DeviceID

    /// Creates a request.
    public init(joinCode: JoinCode, client2: DeviceID) {
        self.joinCode = joinCode
        self.client2 = client2
    }

    /// Reads a request body (missing members first, in the order `joinid`, `client2`).
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        for key in ["joinid", "client2"] where fields.isMissing(key) { throw .missingField(key) }
        joinCode = try fields.joinCode("joinid")
        client2 = try fields.deviceID("client2")
    }

    /// The request body.
    public var json: JSONObject { ["joinid": .string(joinCode.text), "client2": .string(client2.text)] }
}
