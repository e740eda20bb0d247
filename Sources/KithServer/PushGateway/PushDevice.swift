import KithPushDelivery

/// A device registered at the gateway: an APNs or FCM registration id, or a Web Push subscription.
public struct PushDevice: Sendable, Hashable {
    /// The device id (a lowercase UUID).
    public var id: String
    /// The owning account's id.
    public var owner: String
    /// Which provider reaches it.
    public var kind: PushTargetKind
    /// A label chosen by the client.
    public var name: String?
    /// Inactive devices get no notifications (set by the client, or by a provider's "gone").
    public var active: Bool
    /// The APNs device token or FCM registration token; the Web Push endpoint URL for `webpush`.
    public var registrationID: String
    /// The client's own device id (ChatSecure's optional `device_id`).
    public var deviceID: String?
    /// Web Push only: the subscriber's P-256 key (`p256dh`, base64url).
    public var p256dh: String?
    /// Web Push only: the subscriber's auth secret (`auth`, base64url).
    public var auth: String?
    /// Creation time, milliseconds since the epoch.
    public var createdAt: Int64

    /// A device with every field.
    public init(
        id: String, owner: String, kind: PushTargetKind, name: String?, active: Bool, registrationID: String,
        deviceID: String? = nil, p256dh: String? = nil, auth: String? = nil, createdAt: Int64
    ) {
        self.id = id
        self.owner = owner
        self.kind = kind
        self.name = name
        self.active = active
        self.registrationID = registrationID
        self.deviceID = deviceID
        self.p256dh = p256dh
        self.auth = auth
        self.createdAt = createdAt
    }
}
