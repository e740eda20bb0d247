import KithRendezvous

/// A connection asking to enter a room.
public struct JoinRequest: Sendable, Hashable {
    /// The room (created over REST).
    public var room: RoomID
    /// The connection.
    public var member: MemberAddress
    /// The client's ephemeral device id for this pairing, if it sent one: keeps its role across
    /// reconnects and replaces a stale connection of the same device.
    public var device: DeviceID?

    /// Creates a request.
    public init(room: RoomID, member: MemberAddress, device: DeviceID?) {
        self.room = room
        self.member = member
        self.device = device
    }
}

/// What joining a room did.
public enum JoinOutcome: Sendable, Hashable {
    /// No live room of that id.
    case roomNotFound
    /// Two other connections are in the room; nothing changed.
    case roomFull
    /// The connection is in the room.
    case joined(JoinedRoom)
}

/// The state after a successful join.
public struct JoinedRoom: Sendable, Hashable {
    /// The joining connection's role.
    public var isInitiator: Bool
    /// The other member, if there is one now.
    public var peer: RoomMember?
    /// A connection of the same device that was in the room and was removed (a stale socket).
    public var replaced: MemberAddress?
    /// The room the connection was in before, and who remains there.
    public var previous: RoomDeparture?
    /// True when the connection already was in this room (nothing changed).
    public var alreadyMember: Bool

    /// Creates a join result.
    public init(isInitiator: Bool, peer: RoomMember?, replaced: MemberAddress?, previous: RoomDeparture?, alreadyMember: Bool) {
        self.isInitiator = isInitiator
        self.peer = peer
        self.replaced = replaced
        self.previous = previous
        self.alreadyMember = alreadyMember
    }
}

/// A connection left a room: which room, and who is still in it.
public struct RoomDeparture: Sendable, Hashable {
    /// The room left.
    public var room: RoomID
    /// The members that remain.
    public var remaining: [RoomMember]

    /// Creates a departure.
    public init(room: RoomID, remaining: [RoomMember]) {
        self.room = room
        self.remaining = remaining
    }
}
