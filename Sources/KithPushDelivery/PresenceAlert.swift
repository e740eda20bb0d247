/// A presence push: Inviso's visible "someone is waiting in your chat room" alert, carrying the room id the app
/// opens when it is tapped (the iOS app and its notification service extension read `roomId`; nothing else).
///
/// Only APNs and FCM deliver it; ``WebPushProvider`` refuses it.
public struct PresenceAlert: Sendable, Hashable {
    /// The text Inviso's server shows (the iOS notification service extension may replace it with the room's name).
    public static let defaultText = "Someone is waiting in your chat room"
    /// The notification title on Android (Inviso's).
    public static let androidTitle = "Chat Room Active"
    /// The Android notification channel Inviso's app declares.
    public static let androidChannel = "vortex_notifications"
    /// Longest room id carried (the rendezvous server's room ids are 48 hex digits).
    public static let maximumRoomIDBytes = 128

    /// The room the app opens.
    public var roomID: String
    /// The alert text.
    public var text: String

    /// Creates an alert for `roomID`.
    public init(roomID: String, text: String = PresenceAlert.defaultText) {
        self.roomID = roomID
        self.text = text
    }

    /// True when the room id and text are short enough for any provider (`roomID` 1…128 bytes, text 1…256 bytes).
    var isDeliverable: Bool {
        (1...Self.maximumRoomIDBytes).contains(roomID.utf8.count) && (1...256).contains(text.utf8.count)
    }
}
