import KithCanonical

/// `{"roomid": "..."}`: the `200` answer to accept and check, and the body of `DELETE /api/rooms`.
public struct RoomIDBody: Sendable, Hashable {
    /// The room.
    public var roomID: RoomID

    /// Creates a body.
    public init(roomID: RoomID) { self.roomID = roomID }

    /// Reads a body.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        roomID = try JSONFields(object).roomID("roomid")
    }

    /// The body.
    public var json: JSONObject { ["roomid": .string(roomID.text)] }
}
