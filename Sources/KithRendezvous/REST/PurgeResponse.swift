import KithCanonical

/// `200` answer to a purge: `{"success": true, "deviceIdCount", "roomsDeleted", "pendingsDeleted"}`.
public struct PurgeResponse: Sendable, Hashable {
    /// How many distinct device ids the request named.
    public var deviceIDCount: Int
    /// Rooms removed (including their signaling memberships).
    public var roomsDeleted: Int
    /// Pending pairings removed.
    public var pendingsDeleted: Int

    /// Creates a response.
    public init(deviceIDCount: Int, roomsDeleted: Int, pendingsDeleted: Int) {
        self.deviceIDCount = deviceIDCount
        self.roomsDeleted = roomsDeleted
        self.pendingsDeleted = pendingsDeleted
    }

    /// Reads a response body.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        guard try fields.bool("success") else { throw .invalidField("success", reason: "must be true") }
        let counts = Int64(0)...Int64(Int32.max)
        deviceIDCount = Int(try fields.integer("deviceIdCount", in: counts))
        roomsDeleted = Int(try fields.integer("roomsDeleted", in: counts))
        pendingsDeleted = Int(try fields.integer("pendingsDeleted", in: counts))
    }

    /// The response body.
    public var json: JSONObject {
        [
            "success": true, "deviceIdCount": .integer(Int64(deviceIDCount)),
            "roomsDeleted": .integer(Int64(roomsDeleted)), "pendingsDeleted": .integer(Int64(pendingsDeleted)),
        ]
    }
}
