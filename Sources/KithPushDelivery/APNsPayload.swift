import KithCanonical
import KithPush

/// The APNs request body for a knock and the push type and priority that go with it.
///
/// - low priority: a background push, `apns-push-type: background`, `apns-priority: 5`,
///   `{"aps":{"content-available":1},"message":{…}}`: the app wakes silently and syncs. (Apple refuses an `alert` in a
///   background push, so the message sits beside `aps`; ChatSecure-Push-Server sends no APNs push at low priority.)
/// - high priority: one alert push, `apns-push-type: alert`, `apns-priority: 10`,
///   `{"aps":{"alert":{"body":"<fixed generic text>","message":{…}},"content-available":1,"mutable-content":1}}`:
///   the message inside `aps.alert`, where ChatSecure-Push-Server puts it and where the ChatSecure-Push SDK's
///   `messageFromPushDictionary` reads it; shown even when iOS throttles background pushes; a notification service
///   extension may replace the generic text after syncing. No message text is ever sent.
struct APNsPayload: Sendable {
    /// Apple's limit for non-VoIP payloads.
    static let maxBytes = 4_096

    let pushType: String
    let priority: Int
    let body: [UInt8]

    /// Builds the payload, or nil when the knock body has no `message` object.
    init?(knock: [UInt8], priority: PushPriority, alertText: String) {
        guard let message = (try? KnockBody(bytes: knock))?.messageObject else { return nil }
        switch priority {
        case .low:
            self.pushType = "background"
            self.priority = 5
            let aps: JSONObject = ["content-available": .integer(1)]
            self.body = CanonicalJSON.serialize(["aps": .object(aps), "message": .object(message)] as JSONObject)
        case .high:
            self.pushType = "alert"
            self.priority = 10
            let aps: JSONObject = [
                "alert": .object(["body": .string(alertText), "message": .object(message)]),
                "content-available": .integer(1),
                "mutable-content": .integer(1),
            ]
            self.body = CanonicalJSON.serialize(["aps": .object(aps)] as JSONObject)
        }
    }

    /// A presence alert (``PresencePayloads/apns(_:)``): an `alert` push at priority 10.
    init(presence: PresenceAlert) {
        self.pushType = "alert"
        self.priority = 10
        self.body = PresencePayloads.apns(presence)
    }
}
