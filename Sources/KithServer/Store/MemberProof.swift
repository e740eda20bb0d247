import KithRendezvous

/// What a `join_room` proves about the joiner: the room id alone is a bearer secret that leaks (a TURN server, a log, a
/// shoulder), so rejoining **as a member** needs that member's device id, which only the two paired devices know
/// (docs/SERVER.md, "Room ids and device ids").
///
/// - A device id that is the room's `client1` or `client2` (constant time) is a member's: it keeps its role and replaces
///   a stale socket of the same device.
/// - Any other device id proves nothing and counts as none: it never replaces anyone nor claims a role.
/// - A joiner without a member's device id is let in only while the room has never seen a member join by device id
///   (Inviso's clients that send no `deviceId`); once a member has (the room remembers an initiator device), the room
///   answers such a joiner `Room not found`.
struct MemberProof: Sendable {
    /// The joiner's device id when it is one of the room's two members, else nil.
    let device: DeviceID?

    init(device: DeviceID?, client1: String, client2: String) {
        guard let device else {
            self.device = nil
            return
        }
        // Both comparisons always run, so the time does not tell which member matched.
        let first = SecretComparison.equal(device.text, client1)
        let second = SecretComparison.equal(device.text, client2)
        self.device = first || second ? device : nil
    }

    /// Whether the joiner may take a free place in a room that remembers `rememberedInitiator`.
    func admits(rememberedInitiator: DeviceID?) -> Bool {
        device != nil || rememberedInitiator == nil
    }
}
