import KithPush

/// Where one registered device receives pushes: the provider kind plus the address that provider needs.
public enum PushTarget: Sendable, Hashable {
    /// An Apple device: its APNs device token, as lowercase hex.
    case apns(deviceToken: String)
    /// An Android device: its FCM registration token.
    case fcm(registrationToken: String)
    /// A Web Push subscription (RFC 8030 push resource URL plus RFC 8291 keys), for example one at `kith serve`'s own push service.
    case webPush(endpoint: String, keys: WebPushSubscriberKeys)

    /// The provider kind that delivers to this target.
    public var kind: PushTargetKind {
        switch self {
        case .apns: .apns
        case .fcm: .fcm
        case .webPush: .webPush
        }
    }

    /// Two targets are equal when they address the same device (the Web Push keys included).
    public static func == (lhs: PushTarget, rhs: PushTarget) -> Bool {
        switch (lhs, rhs) {
        case let (.apns(a), .apns(b)): a == b
        case let (.fcm(a), .fcm(b)): a == b
        case let (.webPush(e1, k1), .webPush(e2, k2)): e1 == e2 && k1.publicKeyBytes == k2.publicKeyBytes && k1.authSecret == k2.authSecret
        default: false
        }
    }

    /// Hashes the address.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case let .apns(token): hasher.combine(0); hasher.combine(token)
        case let .fcm(token): hasher.combine(1); hasher.combine(token)
        case let .webPush(endpoint, keys): hasher.combine(2); hasher.combine(endpoint); hasher.combine(keys.publicKeyBytes)
        }
    }
}

/// The kinds of push providers, one per device type of the gateway API (`device/apns`, `device/gcm`, `device/webpush`).
public enum PushTargetKind: String, Sendable, Hashable, CaseIterable {
    /// Apple Push Notification service (HTTP/2, token-based JWT auth).
    case apns
    /// Firebase Cloud Messaging HTTP v1 (the gateway API still calls it `gcm`, as ChatSecure does).
    case fcm
    /// Web Push: RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID.
    case webPush = "webpush"
}
