import KithRendezvous
import KithServer
import Testing

@Suite("SQLite rendezvous store: memberships and roles")
struct RendezvousStoreTests {
    private func member(_ name: String, node: String = "n1") throws -> MemberAddress {
        MemberAddress(node: node, client: try #require(ClientID(name)))
    }

    private func room(_ store: SQLiteRendezvousStore, code: String = "123456") async throws -> RoomID {
        let joinCode = try #require(JoinCode(code))
        _ = try await store.createPending(joinCode: joinCode, client1: try #require(DeviceID("dev-a")), expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(joinCode: joinCode, client2: try #require(DeviceID("dev-b")), proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { throw RendezvousStoreError.queryFailed("accept") }
        return room
    }

    private func joined(_ outcome: JoinOutcome) throws -> JoinedRoom {
        guard case .joined(let joined) = outcome else { throw RendezvousStoreError.queryFailed("not joined: \(outcome)") }
        return joined
    }

    @Test("role rule: first is initiator, a newcomer takes the free role, a remembered device keeps its role")
    func roleRule() throws {
        let a = try #require(DeviceID("a")), b = try #require(DeviceID("b"))
        let present = RoomMember(address: try member("x"), isInitiator: false)
        #expect(RoleRule.isInitiator(device: nil, rememberedInitiator: nil, peer: nil))
        #expect(RoleRule.isInitiator(device: b, rememberedInitiator: nil, peer: nil))
        #expect(RoleRule.isInitiator(device: nil, rememberedInitiator: nil, peer: present))
        #expect(!RoleRule.isInitiator(device: a, rememberedInitiator: a, peer: RoomMember(address: try member("x"), isInitiator: true)))
        #expect(!RoleRule.isInitiator(device: b, rememberedInitiator: a, peer: nil))
        #expect(RoleRule.isInitiator(device: a, rememberedInitiator: a, peer: nil))
        #expect(RoleRule.rememberedInitiator(after: true, device: a, previously: nil) == a)
        #expect(RoleRule.rememberedInitiator(after: false, device: b, previously: nil) == nil)
        #expect(RoleRule.rememberedInitiator(after: true, device: b, previously: a) == a)
    }

    @Test("two members at most; joining another room leaves the first; rooms that REST did not create are not found")
    func membership() async throws {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let first = try await room(store, code: "111111")
        let second = try await room(store, code: "222222")
        let (x, y, z) = (try member("x"), try member("y"), try member("z"))
        #expect(try await store.join(JoinRequest(room: try #require(RoomID("nope")), member: x, device: nil), roomExpiresAt: 10, now: 2) == .roomNotFound)
        #expect(try joined(try await store.join(JoinRequest(room: first, member: x, device: nil), roomExpiresAt: 100_000, now: 2)).isInitiator)
        let second2 = try joined(try await store.join(JoinRequest(room: first, member: y, device: nil), roomExpiresAt: 100_000, now: 3))
        #expect(!second2.isInitiator)
        #expect(second2.peer == RoomMember(address: x, isInitiator: true))
        #expect(try await store.join(JoinRequest(room: first, member: z, device: nil), roomExpiresAt: 100_000, now: 4) == .roomFull)
        let again = try joined(try await store.join(JoinRequest(room: first, member: y, device: nil), roomExpiresAt: 100_000, now: 5))
        #expect(again.alreadyMember)
        let moved = try joined(try await store.join(JoinRequest(room: second, member: y, device: nil), roomExpiresAt: 100_000, now: 6))
        #expect(moved.previous == RoomDeparture(room: first, remaining: [RoomMember(address: x, isInitiator: true)]))
        #expect(try await store.leave(x, roomExpiresAt: 100_000) == RoomDeparture(room: first, remaining: []))
        #expect(try await store.leave(x, roomExpiresAt: 100_000) == nil)
    }

    @Test("a room with a member outlives its lifetime; without members it expires and is swept")
    func lifetime() async throws {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let room = try await room(store)
        let x = try member("x")
        _ = try await store.join(JoinRequest(room: room, member: x, device: nil), roomExpiresAt: 200_000, now: 2)
        #expect(try await store.room(room, now: 500_000) != nil)
        #expect(try await store.sweep(now: 500_000).roomsDeleted == 0)
        _ = try await store.leave(x, roomExpiresAt: 300_000)
        #expect(try await store.room(room, now: 299_999) != nil)
        #expect(try await store.room(room, now: 300_000) == nil)
        #expect(try await store.sweep(now: 300_000) == SweepOutcome(pendingsDeleted: 1, roomsDeleted: 1))
    }

    @Test("purge removes memberships and answers who was in the rooms")
    func purge() async throws {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let room = try await room(store)
        let x = try member("x", node: "other-node")
        _ = try await store.join(JoinRequest(room: room, member: x, device: DeviceID("dev-a")), roomExpiresAt: 100_000, now: 2)
        let outcome = try await store.purge(deviceIDs: [try #require(DeviceID("dev-b"))])
        #expect(outcome.roomsDeleted == 1)
        #expect(outcome.pendingsDeleted == 1)
        #expect(outcome.affectedMembers == [RoomMembership(room: room, member: x)])
        #expect(try await store.leave(x, roomExpiresAt: 0) == nil)
    }

    @Test("a file database keeps pairings across reopening and forgets memberships")
    func reopen() async throws {
        let path = "/tmp/kith-rendezvous-test-\(ClientID.random().text).sqlite"
        let store = try SQLiteRendezvousStore.open(path: path)
        let room = try await room(store)
        _ = try await store.join(JoinRequest(room: room, member: try member("x"), device: nil), roomExpiresAt: 100_000, now: 2)
        let reopened = try SQLiteRendezvousStore.open(path: path)
        #expect(try await reopened.room(room, now: 3) != nil)
        #expect(try await reopened.leave(try member("x"), roomExpiresAt: 0) == nil)
        #expect(throws: RendezvousStoreError.self) { try SQLiteRendezvousStore.open(path: "/nonexistent-dir/x/y.sqlite") }
    }
}
