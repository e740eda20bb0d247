/// RFC 8030 §5.3: how urgent a push message is, as the `Urgency` header spells it.
public enum WebPushUrgency: String, Sendable, CaseIterable {
    /// `very-low`: on power and Wi-Fi.
    case veryLow = "very-low"
    /// `low`: on power or Wi-Fi.
    case low
    /// `normal`: the default.
    case normal
    /// `high`: at once, even on low battery.
    case high
}
