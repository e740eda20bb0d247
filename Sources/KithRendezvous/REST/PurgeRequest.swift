import KithCanonical

/// `POST /api/user/purge`: forget every pairing and room of these ephemeral device ids
/// (`{"deviceIds": [...]}`, or Inviso's legacy `{"deviceId": "..."}`).
public struct PurgeRequest: Sendable, Hashable {
    /// The device ids to forget (1...``RendezvousLimits/maximumPurgeDeviceIDs``).
    public var deviceIDs: [DeviceID]

    /// Creates a request.
    public init(deviceIDs: [DeviceID]) { self.deviceIDs = deviceIDs }

    /// Reads a request body with Inviso's precedence: an array `deviceIds` wins, else a string
    /// `deviceId`, else ``RendezvousCodecError/missingField(_:)`` (`missing_deviceIds_or_deviceId`).
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let entries: [JSONValue]
        if case .array(let array)? = object["deviceIds"] {
            entries = array
        } else if case .string(let single)? = object["deviceId"], !single.isEmpty {
            entries = [.string(single)]
        } else {
            throw .missingField("deviceIds_or_deviceId")
        }
        guard !entries.isEmpty else { throw .emptyDeviceIDs }
        guard entries.count <= RendezvousLimits.maximumPurgeDeviceIDs else { throw .tooManyDeviceIDs(entries.count) }
        var ids: [DeviceID] = []
        var invalid = 0
        for entry in entries {
            if case .string(let text) = entry, let id = DeviceID(text) { ids.append(id) } else { invalid += 1 }
        }
        guard invalid == 0 else { throw .invalidDeviceIDs(count: invalid) }
        deviceIDs = ids
    }

    /// The request body (the array form).
    public var json: JSONObject { ["deviceIds": .array(deviceIDs.map { .string($0.text) })] }
}
