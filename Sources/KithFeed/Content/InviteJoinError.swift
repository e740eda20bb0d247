import KithCanonical

/// An invite's creator refusing a join request (Kith extension type `invite_join_error`, direct audience only;
/// the counterpart of Convos' `convos.org/invite_join_error:1.0`, same `error` values plus Kith's `invite_used`).
///
/// ```json
/// {"error":"conversation_expired","reason":"the invite tag was rotated","tag":"AbCdEf0123","type":"invite_join_error"}
/// ```
public struct InviteJoinError: Sendable, Hashable {
    /// The refusal kinds: Convos' four and Kith's single-use refusal. Readers treat any other value as
    /// `conversation_expired`, as Convos does.
    public static let kinds = ["conversation_expired", "conversation_not_found", "consent_not_allowed", "generic_failure", "invite_used"]
    /// Longest reason, in Unicode scalars (Convos' bound).
    public static let maxReasonScalars = 500

    /// The invite's tag (10 characters of `[A-Za-z0-9]` for Kith groups; at most 64 bytes).
    public var tag: String
    /// One of ``kinds`` (an unknown value read from a peer is kept as `conversation_expired`).
    public var error: String
    /// Why, for people (untrusted: render sanitized).
    public var reason: String?

    /// Creates the content.
    public init(tag: String, error: String, reason: String? = nil) {
        self.tag = tag
        self.error = error
        self.reason = reason
    }

    init(_ fields: ContentFields) throws(FeedError) {
        tag = try fields.requiredString("tag")
        guard !tag.isEmpty, tag.utf8.count <= 64, tag.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw fields.fail("'tag' must be 1...64 printable ASCII characters")
        }
        let kind = try fields.requiredString("error")
        error = Self.kinds.contains(kind) ? kind : "conversation_expired"
        reason = try fields.optionalString("reason").map { value throws(FeedError) in
            try fields.text(value, "reason", maxScalars: Self.maxReasonScalars)
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["tag"] = .string(tag)
        object["error"] = .string(error)
        if let reason { object["reason"] = .string(reason) }
        return object
    }
}
