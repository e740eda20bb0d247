import KithRendezvous

/// One side of a paired room: the device that created the pairing (`client1`) or the one that accepted it (`client2`).
public enum RoomSide: String, Sendable, Hashable, CaseIterable {
    /// The creator of the pairing (`POST /api/rooms`).
    case client1
    /// The accepter (`POST /api/rooms/accept`).
    case client2
}

/// Where a presence push for a room goes: the side that is not in the room, with the push token it gave.
public struct PresencePeer: Sendable, Hashable {
    /// The room.
    public var room: RoomID
    /// The side the push goes to.
    public var side: RoomSide
    /// Its push token and platform.
    public var token: PresenceToken

    /// Creates a target.
    public init(room: RoomID, side: RoomSide, token: PresenceToken) {
        self.room = room
        self.side = side
        self.token = token
    }
}

/// Which side a presence push goes to, by Inviso's rule (its `sendPushNotificationToPeer`): the side that is not the
/// asking member's device; with no device id known (a client that sent none), the first side holding a token.
enum PresenceRule {
    /// The side to push to, given the asker's proven device id (nil: unknown) and each side's token.
    static func side(asker: String?, client1: String, client2: String, token1: PresenceToken?, token2: PresenceToken?) -> RoomSide? {
        if let asker {
            // Both comparisons always run, so the time does not tell which side asked.
            let isFirst = SecretComparison.equal(asker, client1)
            let isSecond = SecretComparison.equal(asker, client2)
            if isFirst { return token2 == nil ? nil : .client2 }
            if isSecond { return token1 == nil ? nil : .client1 }
        }
        if token1 != nil { return .client1 }
        if token2 != nil { return .client2 }
        return nil
    }

    /// The token a row stores, when both columns hold a valid one.
    static func token(text: String?, platform: String?) -> PresenceToken? {
        guard let text, let platform, let kind = PresencePlatform(rawValue: platform) else { return nil }
        return PresenceToken(platform: kind, text: text)
    }
}
