import KithCanonical

/// The bounds of the push clients.
public enum PushClientLimits {
    /// Largest HTTP answer body read (a batch of 20 tokens is about 2 KiB).
    public static let maxResponseBytes = 65_536
    /// Largest WebSocket message from the push service (a 4096-byte body in base64url plus the frame's fields).
    public static let maxSocketMessageBytes = 8_192
    /// Longest message id from the push service.
    public static let maxMessageIDBytes = 128
    /// JSON bounds for answers.
    static let responseJSON = JSONLimits(maxBytes: maxResponseBytes, maxDepth: 4, maxStringBytes: 8_192, maxContainerElements: 64, maxTotalValues: 512)
    /// JSON bounds for push service frames.
    static let frameJSON = JSONLimits(maxBytes: maxSocketMessageBytes, maxDepth: 3, maxStringBytes: maxSocketMessageBytes, maxContainerElements: 8, maxTotalValues: 16)
}
