import KithCanonical
@testable import KithPushDelivery
import KithPush
import Testing

@Suite("Presence alerts: Inviso's APNs and FCM payloads")
struct PresencePayloadsTests {
    @Test("APNs: a visible alert with mutable-content and the room id at the top level, nothing else")
    func apns() throws {
        let payload = APNsPayload(presence: PresenceAlert(roomID: "ab12"))
        #expect(payload.pushType == "alert")
        #expect(payload.priority == 10)
        #expect(String(decoding: payload.body, as: UTF8.self)
            == #"{"aps":{"alert":"Someone is waiting in your chat room","badge":1,"mutable-content":1,"sound":"default"},"roomId":"ab12","type":"presence"}"#)
    }

    @Test("FCM: a notification on Inviso's channel with data {roomId, type}, the TTL clamped")
    func fcm() throws {
        let body = PresencePayloads.fcm(PresenceAlert(roomID: "ab12"), registrationToken: "tok:1", timeToLiveSeconds: 300)
        let message = try #require(try CanonicalJSON.parse(body).objectValue?["message"]?.objectValue)
        #expect(message["token"] == .string("tok:1"))
        #expect(message["data"] == .object(["roomId": .string("ab12"), "type": .string("presence")]))
        #expect(message["notification"]?.objectValue?["title"] == .string(PresenceAlert.androidTitle))
        let android = try #require(message["android"]?.objectValue)
        #expect(android["priority"] == .string("high"))
        #expect(android["ttl"] == .string("300s"))
        #expect(android["notification"]?.objectValue?["channel_id"] == .string("vortex_notifications"))
    }

    @Test("an oversized room id is not deliverable; a presence push is high priority")
    func refusals() async throws {
        let alert = PresenceAlert(roomID: String(repeating: "a", count: PresenceAlert.maximumRoomIDBytes + 1))
        #expect(!alert.isDeliverable)
        #expect(PresenceAlert(roomID: "ab12").isDeliverable)
        #expect(PushNotification(presence: alert, target: .apns(deviceToken: "ab"), timeToLiveSeconds: 1).priority == .high)
    }
}
