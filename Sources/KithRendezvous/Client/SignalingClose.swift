/// How a signaling connection ended: the WebSocket close status and reason the server sent, if any.
public struct SignalingClose: Sendable, Hashable {
    /// The RFC 6455 status code (1000 normal, 1001 going away, 1008 policy, 1009 too large…).
    public var code: Int?
    /// The close reason text.
    public var reason: String?

    /// Creates a close description.
    public init(code: Int?, reason: String?) {
        self.code = code
        self.reason = reason
    }
}
