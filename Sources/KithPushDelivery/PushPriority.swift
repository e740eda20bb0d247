/// How urgently a knock should wake the device (ChatSecure's `priority`, default `low`).
public enum PushPriority: String, Sendable, Hashable, CaseIterable {
    /// Wake the device now (APNs priority 10 for alert pushes, FCM `high`, Web Push `Urgency: high`).
    case high
    /// Deliver when convenient (APNs background priority 5, FCM `normal`, Web Push `Urgency: normal`).
    case low
}
