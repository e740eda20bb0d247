import KithRendezvous

/// Everything the rendezvous server keeps: pending pairings, rooms and which signaling
/// connection is in which room.
///
/// All state shared between nodes lives here, so several servers can share one store (the
/// SQLite implementation is for one process; a PostgreSQL one shares rooms across nodes). Every
/// method is one transaction, and every rule that must hold under concurrency (one accept winner,
/// two members per room) is enforced inside it, never by the caller. Times are milliseconds since
/// the epoch on the calling server's clock.
public protocol RendezvousStore: Sendable {
    /// Creates a pending pairing under `joinCode`, replacing an expired unaccepted one; `presence` is client1's push
    /// token, kept with the pairing and then with its room (deleted with them).
    func createPending(joinCode: JoinCode, client1: DeviceID, presence: PresenceToken?, expiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> CreatePendingOutcome

    /// Accepts the live pairing of `joinCode` for `client2` with compare-and-set: exactly one
    /// device wins, the room is created with id `proposedRoom` and lives until `roomExpiresAt`, holding client1's push
    /// token from the pairing and client2's `presence`.
    func accept(joinCode: JoinCode, client2: DeviceID, presence: PresenceToken?, proposedRoom: RoomID, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> AcceptOutcome

    /// Where a presence push asked by the connection `asker` goes: nil when it is in no live room, when the room has
    /// another member (the peer is connected), or when the side chosen by Inviso's rule has no push token.
    func presencePeer(of asker: MemberAddress, now: Int64) async throws(RendezvousStoreError) -> PresencePeer?

    /// Forgets a push token the push service called invalid, if that side of the room still holds that token.
    func forgetPresenceToken(_ peer: PresencePeer) async throws(RendezvousStoreError)

    /// Tells client1 whether its pairing was accepted; an accepted pairing stays answerable after
    /// the code's expiry, until the room is gone.
    func check(joinCode: JoinCode, client1: DeviceID, now: Int64) async throws(RendezvousStoreError) -> CheckOutcome

    /// The live room of that id, if any.
    func room(_ id: RoomID, now: Int64) async throws(RendezvousStoreError) -> RoomInfo?

    /// Deletes a room and its memberships; answers the connections that were in it.
    func deleteRoom(_ id: RoomID) async throws(RendezvousStoreError) -> [MemberAddress]

    /// Deletes every pending pairing, room and membership tied to these device ids.
    func purge(deviceIDs: [DeviceID]) async throws(RendezvousStoreError) -> PurgeOutcome

    /// Puts a connection in a room (at most two members; roles by ``RoleRule``), leaving the room
    /// it was in; refreshes the room's lifetime to `roomExpiresAt`.
    func join(_ request: JoinRequest, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> JoinOutcome

    /// Takes a connection out of its room; nil when it was in none. Refreshes the room's lifetime
    /// to `roomExpiresAt`.
    func leave(_ member: MemberAddress, roomExpiresAt: Int64) async throws(RendezvousStoreError) -> RoomDeparture?

    /// Deletes expired unaccepted pairings, accepted pairings whose room is gone, and rooms past
    /// their lifetime that have no member.
    func sweep(now: Int64) async throws(RendezvousStoreError) -> SweepOutcome
}

extension RendezvousStore {
    /// Creates a pending pairing without a push token.
    public func createPending(joinCode: JoinCode, client1: DeviceID, expiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> CreatePendingOutcome {
        try await createPending(joinCode: joinCode, client1: client1, presence: nil, expiresAt: expiresAt, now: now)
    }

    /// Accepts a pairing without a push token.
    public func accept(joinCode: JoinCode, client2: DeviceID, proposedRoom: RoomID, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> AcceptOutcome {
        try await accept(joinCode: joinCode, client2: client2, presence: nil, proposedRoom: proposedRoom, roomExpiresAt: roomExpiresAt, now: now)
    }
}
