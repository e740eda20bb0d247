import KithRendezvous

/// Who makes the WebRTC offer: the first connection to join a room is the initiator, and a
/// member keeps its role when it reconnects.
///
/// - The two members of a room always have different roles: a newcomer takes the role the
///   present member does not have (so a reconnecting member gets its old role back).
/// - In an empty room, a device the room remembers as its initiator is the initiator again, any
///   other device with an id is the responder, and a connection without a device id is the
///   initiator (first to join).
/// - The first device id that becomes initiator is remembered by the room.
public enum RoleRule {
    /// The role of a connection joining a room.
    /// - Parameters:
    ///   - device: the joiner's device id, if it sent one.
    ///   - rememberedInitiator: the device the room remembers as initiator, if any.
    ///   - peer: the member present in the room, if any.
    public static func isInitiator(device: DeviceID?, rememberedInitiator: DeviceID?, peer: RoomMember?) -> Bool {
        if let peer { return !peer.isInitiator }
        guard let device, let rememberedInitiator else { return true }
        return SecretComparison.equal(device, rememberedInitiator)
    }

    /// The initiator device the room remembers after the join.
    public static func rememberedInitiator(after isInitiator: Bool, device: DeviceID?, previously: DeviceID?) -> DeviceID? {
        if let previously { return previously }
        return isInitiator ? device : nil
    }
}
