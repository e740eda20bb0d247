import KithCanonical
import KithPush

/// The FCM HTTP v1 request body for a knock:
/// `{"message":{"android":{"priority":"high"|"normal","ttl":"<n>s"},"data":{"message":"<message JSON>"},"token":"…"}}`.
///
/// `data.message` is the canonical JSON text of the knock body's `message` object (`{"data":…,"token":…}`):
/// FCM data values are strings.
enum FCMMessage {
    /// FCM's limit for the `data` payload.
    static let maxDataBytes = 4_096

    /// The body, or nil when the knock body has no `message` object.
    static func body(registrationToken: String, knock: [UInt8], priority: PushPriority, timeToLiveSeconds: Int) -> [UInt8]? {
        guard let message = (try? KnockBody(bytes: knock))?.messageObject else { return nil }
        let messageText = String(decoding: CanonicalJSON.serialize(message), as: UTF8.self)
        let ttl = min(max(timeToLiveSeconds, 0), FCMProviderConfiguration.maxTimeToLiveSeconds)
        let android: JSONObject = ["priority": .string(priority == .high ? "high" : "normal"), "ttl": .string("\(ttl)s")]
        let inner: JSONObject = [
            "android": .object(android),
            "data": .object(["message": .string(messageText)]),
            "token": .string(registrationToken),
        ]
        return CanonicalJSON.serialize(["message": .object(inner)] as JSONObject)
    }
}
