/// One push to one device, as the gateway hands it to a ``PushProvider``.
///
/// `payload` is the knock body the receiving client maps to a contact (ChatSecure's
/// `{"message":{"data":…,"token":…}}`), never message text. Providers encrypt it where their
/// transport calls for it (Web Push: RFC 8291 `aes128gcm`).
public struct PushNotification: Sendable, Hashable {
    /// The device.
    public var target: PushTarget
    /// The knock body, at most `PushLimits.maxPlaintextBytes` bytes.
    public var payload: [UInt8]
    /// How urgently to wake the device.
    public var priority: PushPriority
    /// How long the push service may hold the push for an offline device, in seconds.
    public var timeToLiveSeconds: Int
    /// A collapse key: a newer push with the same topic replaces an undelivered older one (Web Push `Topic`, APNs `apns-collapse-id`).
    public var topic: String?
    /// A presence alert to show instead of a knock (APNs and FCM only); when set, `payload` is ignored.
    public var presence: PresenceAlert?

    /// Creates a push.
    public init(target: PushTarget, payload: [UInt8], priority: PushPriority, timeToLiveSeconds: Int, topic: String? = nil) {
        self.target = target
        self.payload = payload
        self.priority = priority
        self.timeToLiveSeconds = timeToLiveSeconds
        self.topic = topic
    }

    /// Creates a presence push (``PresenceAlert``) to `target`, held by the push service for `timeToLiveSeconds`.
    public init(presence: PresenceAlert, target: PushTarget, timeToLiveSeconds: Int) {
        self.init(target: target, payload: [], priority: .high, timeToLiveSeconds: timeToLiveSeconds)
        self.presence = presence
    }
}
