/// Delivers pushes of one ``PushTargetKind`` (APNs, FCM or Web Push).
///
/// Implementations never throw: every failure maps to a ``PushDeliveryOutcome`` so the gateway can
/// deactivate dead devices and retry transient failures without blocking its API.
public protocol PushProvider: Sendable {
    /// The kind of target this provider delivers to.
    var kind: PushTargetKind { get }

    /// Delivers one push and reports the outcome.
    func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome
}
