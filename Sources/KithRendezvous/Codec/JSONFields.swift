import KithCanonical

/// Typed reads of the members of a received JSON object, each failing with the
/// ``RendezvousCodecError`` that names the member.
///
/// "Missing" follows Inviso's rule: absent, `null` or the empty string.
struct JSONFields {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    /// True when `key` is absent, `null` or `""`.
    func isMissing(_ key: String) -> Bool {
        switch object[key] {
        case nil, .null?: true
        case .string(let text)?: text.isEmpty
        default: false
        }
    }

    /// A required string of at most `maximumBytes` UTF-8 bytes.
    func string(_ key: String, maximumBytes: Int) throws(RendezvousCodecError) -> String {
        guard !isMissing(key) else { throw .missingField(key) }
        guard case .string(let text)? = object[key] else { throw .invalidField(key, reason: "must be a string") }
        guard text.utf8.count <= maximumBytes else {
            throw .invalidField(key, reason: "longer than \(maximumBytes) bytes")
        }
        return text
    }

    /// An optional string (absent or `null` give nil) of at most `maximumBytes` UTF-8 bytes.
    func optionalString(_ key: String, maximumBytes: Int) throws(RendezvousCodecError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard text.utf8.count <= maximumBytes else {
                throw .invalidField(key, reason: "longer than \(maximumBytes) bytes")
            }
            return text
        default: throw .invalidField(key, reason: "must be a string")
        }
    }

    /// An optional integer (absent or `null` give nil) within `range`.
    func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(RendezvousCodecError) -> Int64? {
        switch object[key] {
        case nil, .null?: return nil
        case .integer(let value)?:
            guard range.contains(value) else {
                throw .invalidField(key, reason: "must be between \(range.lowerBound) and \(range.upperBound)")
            }
            return value
        default: throw .invalidField(key, reason: "must be an integer")
        }
    }

    /// A required boolean.
    func bool(_ key: String) throws(RendezvousCodecError) -> Bool {
        switch object[key] {
        case nil, .null?: throw .missingField(key)
        case .bool(let value)?: return value
        default: throw .invalidField(key, reason: "must be true or false")
        }
    }

    /// A required integer within `range`.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(RendezvousCodecError) -> Int64 {
        guard let value = try optionalInteger(key, in: range) else { throw .missingField(key) }
        return value
    }
}

extension JSONFields {
    /// A required join code (``JoinCode`` rules).
    func joinCode(_ key: String) throws(RendezvousCodecError) -> JoinCode {
        let text = try string(key, maximumBytes: RendezvousLimits.maximumJoinCodeLength)
        guard let code = JoinCode(text) else {
            throw .invalidField(key, reason: "must be \(RendezvousLimits.minimumJoinCodeLength) to \(RendezvousLimits.maximumJoinCodeLength) ASCII letters, digits, '-' or '_'")
        }
        return code
    }

    /// A required device id (``DeviceID`` rules).
    func deviceID(_ key: String) throws(RendezvousCodecError) -> DeviceID {
        let text = try string(key, maximumBytes: RendezvousLimits.maximumDeviceIDLength)
        guard let id = DeviceID(text) else {
            throw .invalidField(key, reason: "must be 1 to \(RendezvousLimits.maximumDeviceIDLength) visible ASCII characters")
        }
        return id
    }

    /// A required room id (``RoomID`` rules).
    func roomID(_ key: String) throws(RendezvousCodecError) -> RoomID {
        let text = try string(key, maximumBytes: RendezvousLimits.maximumRoomIDLength)
        guard let id = RoomID(text) else {
            throw .invalidField(key, reason: "must be 1 to \(RendezvousLimits.maximumRoomIDLength) visible ASCII characters")
        }
        return id
    }
}
