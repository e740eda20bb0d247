import KithCanonical

/// Carries an MLS handshake message for a group (spec 5.6).
public struct GroupEvent: Sendable, Hashable {
    /// The allowed `event` values.
    public static let events = ["create", "add_member", "remove_member", "update_key"]

    /// base64url of the 32-byte group id.
    public var groupID: String
    /// Routing hint: one of ``events``.
    public var event: String
    /// base64url of the MLSMessage.
    public var mlsMessage: String

    /// Creates a group event.
    public init(groupID: String, event: String, mlsMessage: String) {
        self.groupID = groupID
        self.event = event
        self.mlsMessage = mlsMessage
    }

    init(_ fields: ContentFields) throws(FeedError) {
        groupID = try fields.requiredString("group_id")
        _ = try fields.bytes(groupID, "group_id", length: 32)
        event = try fields.oneOf(try fields.requiredString("event"), "event", Self.events) ?? ""
        mlsMessage = try fields.requiredString("mls_message")
        do {
            guard try !Base64URL.decode(mlsMessage).isEmpty else { throw fields.fail("'mls_message' is empty") }
        } catch let error as FeedError {
            throw error
        } catch {
            throw fields.fail("'mls_message' is not base64url")
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["group_id"] = .string(groupID)
        object["event"] = .string(event)
        object["mls_message"] = .string(mlsMessage)
        return object
    }
}
