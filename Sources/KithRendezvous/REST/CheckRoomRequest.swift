import KithCanonical

/// `POST /api/rooms/check`: client1 asks whether its pending pairing was accepted
/// (`{"joinid", "client1"}`).
public struct CheckRoomRequest: Sendable, Hashable {
    /// The join code of the pending pairing.
    public var joinCode: JoinCode
    /// client1's ephemeral device id (must match the one that created the pairing).
    public var client1: DeviceID

    /// Creates a request.
    public init(joinCode: JoinCode, client1: DeviceID) {
        self.joinCode = joinCode
        self.client1 = client1
    }

    /// Reads a request body (missing members first, in the order `joinid`, `client1`).
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        for key in ["joinid", "client1"] where fields.isMissing(key) { throw .missingField(key) }
        joinCode = try fields.joinCode("joinid")
        client1 = try fields.deviceID("client1")
    }

    /// The request body.
    public var json: JSONObject { ["joinid": .string(joinCode.text), "client1": .string(client1.text)] }
}
