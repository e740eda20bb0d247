import KithCanonical

/// The body of every REST error: `{"error": "<code>"}`, with `details` or `count` where Inviso
/// sends them.
public struct RendezvousErrorBody: Sendable, Hashable {
    /// The error string (see ``RendezvousErrorCode``).
    public var error: String
    /// A human explanation, when there is one.
    public var details: String?
    /// How many entries were rejected (purge only).
    public var count: Int?

    /// Creates an error body.
    public init(error: String, details: String? = nil, count: Int? = nil) {
        self.error = error
        self.details = details
        self.count = count
    }

    /// The body for a rejected request: Inviso's `details` for `expiresInSeconds`, the rejected
    /// entry count for a purge, the rule that failed otherwise.
    public init(rejecting error: RendezvousCodecError) {
        switch error {
        case .invalidDeviceIDs(let count): self.init(error: error.code, count: count)
        case .invalidField(_, let reason): self.init(error: error.code, details: reason)
        case .missingField, .emptyDeviceIDs: self.init(error: error.code)
        default: self.init(error: error.code, details: error.description)
        }
    }

    /// Reads an error body; nil when it is not one.
    public init?(json object: JSONObject) {
        let fields = JSONFields(object)
        guard let error = try? fields.string("error", maximumBytes: 256) else { return nil }
        self.error = error
        details = try? fields.optionalString("details", maximumBytes: 4_096)
        count = (try? fields.optionalInteger("count", in: 0...Int64(Int32.max))).flatMap { $0.map(Int.init) }
    }

    /// The body.
    public var json: JSONObject {
        var object: JSONObject = ["error": .string(error)]
        if let details { object["details"] = .string(details) }
        if let count { object["count"] = .integer(Int64(count)) }
        return object
    }
}
