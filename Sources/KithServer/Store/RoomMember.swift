/// One signaling connection in a room, with its role.
public struct RoomMember: Sendable, Hashable {
    /// The connection.
    public var address: MemberAddress
    /// True for the member that makes the WebRTC offer.
    public var isInitiator: Bool

    /// Creates a member.
    public init(address: MemberAddress, isInitiator: Bool) {
        self.address = address
        self.isInitiator = isInitiator
    }
}
