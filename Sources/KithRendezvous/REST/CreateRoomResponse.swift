import KithCanonical

/// `201` answer to `POST /api/rooms`: `{"ok": true, "exp": "<ISO 8601 UTC with milliseconds>"}`.
public struct CreateRoomResponse: Sendable, Hashable {
    /// When the pending pairing expires, on the server's clock.
    public var expiresAt: ExpiryTimestamp

    /// Creates a response.
    public init(expiresAt: ExpiryTimestamp) { self.expiresAt = expiresAt }

    /// Reads a response body.
    public init(json object: JSONObject) throws(RendezvousCodecError) {
        let fields = JSONFields(object)
        guard try fields.bool("ok") else { throw .invalidField("ok", reason: "must be true") }
        let text = try fields.string("exp", maximumBytes: 64)
        guard let expiresAt = ExpiryTimestamp(iso8601: text) else {
            throw .invalidField("exp", reason: "must be an ISO 8601 UTC time such as 2025-01-31T12:00:00.000Z")
        }
        self.expiresAt = expiresAt
    }

    /// The response body.
    public var json: JSONObject { ["ok": true, "exp": .string(expiresAt.iso8601)] }
}
