import KithCanonical

/// Soft-deletes one of the author's messages (spec 5.7): the row stays, its content is cleared.
public struct Tombstone: Sendable, Hashable {
    /// The allowed `reason` values.
    public static let reasons = ["retracted", "error", "spam"]

    /// The message to hide.
    public var targetMessage: MessageID
    /// Why.
    public var reason: String?

    /// Creates a tombstone.
    public init(targetMessage: MessageID, reason: String? = nil) {
        self.targetMessage = targetMessage
        self.reason = reason
    }

    init(_ fields: ContentFields) throws(FeedError) {
        targetMessage = try fields.messageID(try fields.requiredString("target_message"), "target_message")
        reason = try fields.oneOf(try fields.optionalString("reason"), "reason", Self.reasons)
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["target_message"] = .string(targetMessage.string)
        if let reason { object["reason"] = .string(reason) }
        return object
    }
}
