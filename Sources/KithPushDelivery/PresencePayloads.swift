import KithCanonical

/// The provider bodies of a ``PresenceAlert``, in the shapes Inviso's server sends (its `apns-service.js` and
/// `fcm-service.js`), without the timestamp the apps never read.
enum PresencePayloads {
    /// APNs: `{"aps":{"alert":"<text>","badge":1,"mutable-content":1,"sound":"default"},"roomId":"…","type":"presence"}`,
    /// sent as an `alert` push at priority 10. `mutable-content` lets the app's notification service extension put
    /// the room's name in the text.
    static func apns(_ alert: PresenceAlert) -> [UInt8] {
        let aps: JSONObject = [
            "alert": .string(alert.text), "badge": .integer(1), "mutable-content": .integer(1), "sound": .string("default"),
        ]
        return CanonicalJSON.serialize(["aps": .object(aps), "roomId": .string(alert.roomID), "type": .string("presence")] as JSONObject)
    }

    /// FCM HTTP v1: a notification (title, text) on Inviso's channel at high priority, with
    /// `data {"roomId", "type": "presence"}`.
    static func fcm(_ alert: PresenceAlert, registrationToken: String, timeToLiveSeconds: Int) -> [UInt8] {
        let ttl = min(max(timeToLiveSeconds, 0), FCMProviderConfiguration.maxTimeToLiveSeconds)
        let androidNotification: JSONObject = [
            "channel_id": .string(PresenceAlert.androidChannel), "default_sound": .bool(true), "default_vibrate_timings": .bool(true),
        ]
        let android: JSONObject = ["notification": .object(androidNotification), "priority": .string("high"), "ttl": .string("\(ttl)s")]
        let message: JSONObject = [
            "android": .object(android),
            "data": .object(["roomId": .string(alert.roomID), "type": .string("presence")]),
            "notification": .object(["body": .string(alert.text), "title": .string(PresenceAlert.androidTitle)]),
            "token": .string(registrationToken),
        ]
        return CanonicalJSON.serialize(["message": .object(message)] as JSONObject)
    }
}
