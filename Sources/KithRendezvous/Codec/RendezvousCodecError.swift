import KithCanonical

/// Why a rendezvous REST body or signaling message was rejected.
///
/// ``code`` gives the error string the server answers with (Inviso's own where Inviso has one,
/// such as `missing_joinid`), so a client can tell exactly which field to fix.
public enum RendezvousCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON within the protocol's bounds (size, depth, counts, strict syntax).
    case invalidJSON(CanonicalJSONError)
    /// The document is JSON but not an object.
    case notAnObject
    /// A required member is absent, `null` or an empty string (Inviso's rule for "missing").
    case missingField(String)
    /// A member is present but has the wrong type, length or alphabet; `reason` says which rule failed.
    case invalidField(String, reason: String)
    /// A signaling message whose `type` this protocol does not define.
    case unknownType(String)
    /// A purge names no device id (`deviceIds` is `[]`).
    case emptyDeviceIDs
    /// A purge names more than ``RendezvousLimits/maximumPurgeDeviceIDs`` device ids.
    case tooManyDeviceIDs(Int)
    /// A purge lists `count` entries that are not valid device ids.
    case invalidDeviceIDs(count: Int)

    /// The stable error string for this rejection: `invalid_json`, `missing_<field>`,
    /// `invalid_<field>`, `not_an_object` or `unknown_type`.
    public var code: String {
        switch self {
        case .invalidJSON: "invalid_json"
        case .notAnObject: "not_an_object"
        case .missingField(let field): "missing_\(field)"
        case .invalidField(let field, _): "invalid_\(field)"
        case .unknownType: "unknown_type"
        case .emptyDeviceIDs: RendezvousErrorCode.emptyDeviceIDs
        case .tooManyDeviceIDs: RendezvousErrorCode.tooManyDeviceIDs
        case .invalidDeviceIDs: RendezvousErrorCode.invalidDeviceIDs
        }
    }

    /// One sentence naming the problem and the rule.
    public var description: String {
        switch self {
        case .invalidJSON(let error): "the body is not valid JSON within the rendezvous limits: \(error)"
        case .notAnObject: "the body must be a JSON object"
        case .missingField(let field): "the member \"\(field)\" is required (absent, null or empty)"
        case .invalidField(let field, let reason): "the member \"\(field)\" is invalid: \(reason)"
        case .unknownType(let type): "unknown signaling message type \"\(type)\""
        case .emptyDeviceIDs: "\"deviceIds\" must name at least one device id"
        case .tooManyDeviceIDs(let count): "\"deviceIds\" names \(count) ids; at most \(RendezvousLimits.maximumPurgeDeviceIDs) per request"
        case .invalidDeviceIDs(let count): "\(count) entries of \"deviceIds\" are not device ids (1 to \(RendezvousLimits.maximumDeviceIDLength) visible ASCII characters)"
        }
    }
}
