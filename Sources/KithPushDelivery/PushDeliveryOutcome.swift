/// What a provider reports for one ``PushNotification``: the gateway acts on it (nothing, deactivate
/// the device, retry with backoff, or log and drop).
public enum PushDeliveryOutcome: Sendable, Hashable {
    /// The provider accepted the push.
    case delivered
    /// The provider says the device address is dead (APNs 410 `Unregistered`, FCM `UNREGISTERED`,
    /// Web Push 404/410): the gateway deactivates the device.
    case targetGone(reason: String)
    /// A transient failure (timeouts, 429, 5xx): retry later, after `retryAfterSeconds` when the provider said so.
    case retryable(reason: String, retryAfterSeconds: Int?)
    /// A permanent failure of this push (bad request, bad credentials): log and drop, do not retry.
    case rejected(reason: String)
}
