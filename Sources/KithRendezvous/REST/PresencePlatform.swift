/// The platform an Inviso app names beside its push token (`platform` on `POST /api/rooms` and
/// `POST /api/rooms/accept`): which push service reaches it.
public enum PresencePlatform: String, Sendable, Hashable, CaseIterable {
    /// An iPhone: the token is an APNs device token (64 hex digits); the iOS app sends `"ios"`.
    case ios
    /// An Android phone: the token is an FCM registration token; Inviso's server reads `"android"`.
    case android
}
