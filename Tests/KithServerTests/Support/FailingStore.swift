import KithRendezvous
import KithServer

/// A store whose every call fails, as an unreachable database does.
struct FailingStore: RendezvousStore {
    private var failure: RendezvousStoreError { .queryFailed("connection refused") }
    func createPending(joinCode: JoinCode, client1: DeviceID, presence: PresenceToken?, expiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> CreatePendingOutcome { throw failure }
    func accept(joinCode: JoinCode, client2: DeviceID, presence: PresenceToken?, proposedRoom: RoomID, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> AcceptOutcome { throw failure }
    func presencePeer(of asker: MemberAddress, now: Int64) async throws(RendezvousStoreError) -> PresencePeer? { throw failure }
    func forgetPresenceToken(_ peer: PresencePeer) async throws(RendezvousStoreError) { throw failure }
    func check(joinCode: JoinCode, client1: DeviceID, now: Int64) async throws(RendezvousStoreError) -> CheckOutcome { throw failure }
    func room(_ id: RoomID, now: Int64) async throws(RendezvousStoreError) -> RoomInfo? { throw failure }
    func deleteRoom(_ id: RoomID) async throws(RendezvousStoreError) -> [MemberAddress] { throw failure }
    func purge(deviceIDs: [DeviceID]) async throws(RendezvousStoreError) -> PurgeOutcome { throw failure }
    func join(_ request: JoinRequest, roomExpiresAt: Int64, now: Int64) async throws(RendezvousStoreError) -> JoinOutcome { throw failure }
    func leave(_ member: MemberAddress, roomExpiresAt: Int64) async throws(RendezvousStoreError) -> RoomDeparture? { throw failure }
    func sweep(now: Int64) async throws(RendezvousStoreError) -> SweepOutcome { throw failure }
}
