/// What one presence push attempt (Inviso's `ping_peer`, or a member alone in its room after `join_room`) came to.
enum PresencePushOutcome: String, Sendable, Hashable, CaseIterable {
    /// The push service accepted the push.
    case delivered
    /// Nobody to push: the asker is in no room, the peer is connected, or the peer's side gave no push token.
    case noTarget = "no_target"
    /// The peer's platform has no provider configured (`--apns-key` for iOS, `--fcm-service-account` for Android).
    case noProvider = "no_provider"
    /// The peer had a presence push less than ``RendezvousServerLimits/presencePushInterval`` ago.
    case rateLimited = "rate_limited"
    /// The push service called the token invalid (APNs 410 or `BadDeviceToken`, FCM `UNREGISTERED`): it was forgotten.
    case tokenForgotten = "token_forgotten"
    /// The store or the push service failed (nothing retried: the app pings again).
    case failed
}
