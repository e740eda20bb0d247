import KithRendezvous

/// What creating a pending pairing did.
public enum CreatePendingOutcome: Sendable, Hashable {
    /// The pairing exists and expires at this time (milliseconds since the epoch). Repeating the
    /// same request (same code, same client1) answers the first expiry again.
    case created(expiresAt: Int64)
    /// A live pairing of another device already uses this code.
    case joinCodeInUse
}

/// What accepting a join code did.
public enum AcceptOutcome: Sendable, Hashable {
    /// This device won the pairing (or had already won it: accepts are idempotent per client2).
    case accepted(RoomID)
    /// Another device accepted the code first.
    case conflict
    /// No live pairing has this code.
    case notFoundOrExpired
}

/// What client1 learns when it checks its pairing.
public enum CheckOutcome: Sendable, Hashable {
    /// Not accepted yet and not expired.
    case pending
    /// Accepted: the room (answered again on every check while the room lives).
    case accepted(RoomID)
    /// No such pairing for this client1, or it expired unaccepted.
    case notFoundOrExpired
}

/// What a purge removed.
public struct PurgeOutcome: Sendable, Hashable {
    /// Rooms deleted.
    public var roomsDeleted: Int
    /// Pending pairings deleted.
    public var pendingsDeleted: Int
    /// Signaling connections that were in a deleted room (to be told), with that room.
    public var affectedMembers: [RoomMembership]

    /// Creates an outcome.
    public init(roomsDeleted: Int, pendingsDeleted: Int, affectedMembers: [RoomMembership]) {
        self.roomsDeleted = roomsDeleted
        self.pendingsDeleted = pendingsDeleted
        self.affectedMembers = affectedMembers
    }
}

/// What a sweep deleted.
public struct SweepOutcome: Sendable, Hashable {
    /// Pending pairings that expired unaccepted, or whose room is gone.
    public var pendingsDeleted: Int
    /// Rooms past their lifetime with no member.
    public var roomsDeleted: Int

    /// Creates an outcome.
    public init(pendingsDeleted: Int, roomsDeleted: Int) {
        self.pendingsDeleted = pendingsDeleted
        self.roomsDeleted = roomsDeleted
    }
}

/// One connection in one room.
public struct RoomMembership: Sendable, Hashable {
    /// The room.
    public var room: RoomID
    /// The connection.
    public var member: MemberAddress

    /// Creates a membership.
    public init(room: RoomID, member: MemberAddress) {
        self.room = room
        self.member = member
    }
}
