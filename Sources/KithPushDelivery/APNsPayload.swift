import KithCanonical
import KithPush

/// The APNs request body for a knock and the push type and priority that go with it.
///
/// - low priority: a background push, `apns-push-type: background`, `apns-priority: 5`,
///   `{"aps":{"content-available":1},"message":{…}}`: the app wakes silently and syncs.
/// - high priority: one alert push, `apns-push-type: alert`, `apns-priority: 10`,
///   `{"aps":{"alert":{"body":"<fixed generic text>"},"content-available":1,"mutable-content":1},"message":{…}}`:
///   shown even when iOS throttles background pushes; a notification service extension may replace the
///   generic text after syncing. No message text is ever sent.
struct APNsPayload: Sendable {
    /// Apple's limit for non-VoIP payloads.
    static let maxBytes = 4_096

    let pushType: String
    let priority: Int
    let body: [UInt8]

    /// Builds the payload, or nil when the knock body has no `message` object.
    init?(knock: [UInt8], priority: PushPriority, alertText: String) {
        guard let message = (try? KnockBody(bytes: knock))?.messageObject else { return nil }
        let aps: JSONObject
        switch priority {
        case .low:
            aps = ["content-available": .integer(1)]
            self.pushType = "background"
            self.priority = 5
        case .high:
            aps = [
                "alert": .object(["body": .string(alertText)]),
                "content-available": .integer(1),
                "mutable-content": .integer(1),
            ]
            self.pushType = "alert"
            self.priority = 10
        }
        self.body = CanonicalJSON.serialize(["aps": .object(aps), "message": .object(message)] as JSONObject)
    }
}
