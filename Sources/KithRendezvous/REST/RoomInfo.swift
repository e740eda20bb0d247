import KithCanonical

/// `200` answer to `GET /api/rooms?roomid=`: `{"roomid", "client1", "client2"}` and nothing else
/// (Inviso's push branches leaked push tokens here).
public struct RoomInfo: Sendable, Hashable {
    /// The room.
    public var roomID: RoomID
    /// The device that created the pairing.
    public var client1: DeviceID
    /// The device that accepted it.
    public var client2: DeviceID

    /// Creates a description of a room.
    public init(roomID: RoomID, client1: DeviceID, client2: DeviceID) {
        self.roomID = roomID
        self.client1 = client1
        self.client2 = client2
    }

    /// Reads a response body.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        roomID = try fields.roomID("roomid")
        client1 = try fields.deviceID("client1")
        client2 = try fields.deviceID("client2")
    }

    /// The response body.
    public var json: JSONObject {
        ["roomid": .string(roomID.text), "client1": .string(client1.text), "client2": .string(client2.text)]
    }
}
