import KithCanonical
import KithPush

/// The FCM HTTP v1 request body for a knock:
/// `{"message":{"android":{"priority":"high"|"normal","ttl":"<n>s"},"data":{"message":"<JSON text>"},"token":"…"}}`.
///
/// `data.message` carries what ChatSecure-Push-Server put there, `{"message":{"data":…,"token":…}}`. That server
/// sent it through the legacy GCM API as a nested object, which Android hands to the app as its JSON text (data
/// values arrive as strings); FCM v1 accepts only string values, so Kith sends that JSON text (canonical JSON) and the
/// app receives the same string.
enum FCMMessage {
    /// FCM's limit for the `data` payload.
    static let maxDataBytes = 4_096

    /// The body, or nil when the knock body has no `message` object.
    static func body(registrationToken: String, knock: [UInt8], priority: PushPriority, timeToLiveSeconds: Int) -> [UInt8]? {
        guard let message = (try? KnockBody(bytes: knock))?.messageObject else { return nil }
        let messageText = String(decoding: CanonicalJSON.serialize(["message": .object(message)] as JSONObject), as: UTF8.self)
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
