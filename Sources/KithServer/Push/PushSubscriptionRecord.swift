/// A subscription of the self-hosted push service, as stored: digests of its two secrets.
public struct PushSubscriptionRecord: Sendable, Hashable {
    /// Internal id (random base64url), never shown to anyone.
    public var id: String
    /// SHA-256 of the subscription secret (the subscriber's handle: WebSocket and DELETE).
    public var secretDigest: [UInt8]
    /// SHA-256 of the capability (the endpoint's last path segment: whoever knows it may push).
    public var capabilityDigest: [UInt8]
    /// For a restricted subscription (RFC 8292 §4): the application server's VAPID public key (65 bytes).
    public var vapidKey: [UInt8]?
    /// Creation time, milliseconds since the epoch.
    public var createdAt: Int64

    /// A record with every field.
    public init(id: String, secretDigest: [UInt8], capabilityDigest: [UInt8], vapidKey: [UInt8]?, createdAt: Int64) {
        self.id = id
        self.secretDigest = secretDigest
        self.capabilityDigest = capabilityDigest
        self.vapidKey = vapidKey
        self.createdAt = createdAt
    }
}

/// What a capability names.
public enum PushCapabilityLookup: Sendable, Hashable {
    /// A live subscription.
    case live(PushSubscriptionRecord)
    /// A subscription deleted by its subscriber (410).
    case deleted
}
