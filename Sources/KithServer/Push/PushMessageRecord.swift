/// A push message waiting for its subscriber (an encrypted RFC 8291 body, opaque to the server).
public struct PushMessageRecord: Sendable, Hashable {
    /// The message id (random base64url): the `Location` path and the WebSocket ack's `id`.
    public var id: String
    /// The subscription it is for.
    public var subscriptionID: String
    /// The body as posted (1...4096 bytes).
    public var body: [UInt8]
    /// RFC 8030 urgency: `very-low`, `low`, `normal` or `high`.
    public var urgency: String
    /// RFC 8030 topic: a stored message with the same topic is replaced.
    public var topic: String?
    /// Arrival time, milliseconds since the epoch (messages go out oldest first).
    public var createdAt: Int64
    /// Expiry (arrival + TTL), milliseconds since the epoch.
    public var expiresAt: Int64

    /// A record with every field.
    public init(id: String, subscriptionID: String, body: [UInt8], urgency: String, topic: String?, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.subscriptionID = subscriptionID
        self.body = body
        self.urgency = urgency
        self.topic = topic
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
