import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

/// The PostgreSQL store, and two nodes sharing it. Runs when `KITH_TEST_POSTGRES_URL` names a database (the test
/// command starts a throwaway cluster: `scripts/postgres-cluster.sh`); `swift test` alone skips it.
@Suite("PostgreSQL rendezvous store: one accept winner and shared rooms across nodes",
       .enabled(if: ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"] != nil))
struct PostgresStoreTests {
    static func store(node: String) async throws -> PostgresRendezvousStore {
        let url = try #require(ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"])
        return try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: node)
    }

    /// A join code no other test uses.
    static func code() -> String { String(UInt64.random(in: 100_000_000...999_999_999)) }

    @Test("64 concurrent accepts through two nodes' stores: exactly one winner")
    func acceptRace() async throws {
        let (a, b) = (try await Self.store(node: "race-a"), try await Self.store(node: "race-b"))
        let joinCode = try #require(JoinCode(Self.code()))
        _ = try await a.createPending(joinCode: joinCode, client1: try #require(DeviceID("creator")), expiresAt: 60_000, now: 0)
        let outcomes = try await withThrowingTaskGroup(of: AcceptOutcome.self) { group in
            for index in 0..<64 {
                let store = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    try await store.accept(joinCode: joinCode, client2: DeviceID("dev-\(index)")!, proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .accepted = $0 { true } else { false } }.count == 1)
        #expect(outcomes.filter { $0 == .conflict }.count == 63)
    }

    @Test("a room created on one node is accepted, checked and joined on the other; a third member finds it full")
    func twoNodes() async throws {
        let (a, b) = (try await Self.store(node: "node-a"), try await Self.store(node: "node-b"))
        let clock = ManualServerClock()
        let serverA = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "node-a"), store: a, clock: clock)
        let serverB = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "node-b"), store: b, clock: clock)
        let code = Self.code()
        try await serverA.makeApplication().test(.router) { client in
            let created = try await client.create(code, "dev-a")
            #expect(created.status == 201)
        }
        let room: String = try await serverB.makeApplication().test(.router) { client in
            let accepted = try #require(try await client.accept(code, "dev-b").json["roomid"])
            let again = try await client.accept(code, "dev-x")
            #expect(again.status == 409)
            return accepted
        }
        try await serverA.makeApplication().test(.router) { client in
            let checked = try await client.check(code, "dev-a")
            #expect(checked.json["roomid"] == room)
            let fetched = try await client.call(.get, "/api/rooms?roomid=\(room)&deviceId=dev-b")
            #expect(fetched.json["client2"] == "dev-b")
        }
        // Signaling memberships in the shared store: one member per node, then the room is full for a third.
        let roomID = try #require(RoomID(room))
        let now = clock.nowMilliseconds()
        let first = try await a.join(JoinRequest(room: roomID, member: MemberAddress(node: "node-a", client: ClientID("c1")!), device: DeviceID("dev-a")), roomExpiresAt: now + 100_000, now: now)
        let second = try await b.join(JoinRequest(room: roomID, member: MemberAddress(node: "node-b", client: ClientID("c2")!), device: DeviceID("dev-b")), roomExpiresAt: now + 100_000, now: now)
        let third = try await b.join(JoinRequest(room: roomID, member: MemberAddress(node: "node-b", client: ClientID("c3")!), device: DeviceID("dev-c")), roomExpiresAt: now + 100_000, now: now)
        guard case .joined(let one) = first, case .joined(let two) = second else { Issue.record("not joined: \(first) \(second)"); return }
        #expect(one.isInitiator && !two.isInitiator && two.peer?.address.node == "node-a")
        #expect(third == .roomFull)
        let departure = try await a.leave(MemberAddress(node: "node-a", client: ClientID("c1")!), roomExpiresAt: now + 100_000)
        #expect(departure?.remaining.map(\.address.node) == ["node-b"])
        let purged = try await b.purge(deviceIDs: [DeviceID("dev-a")!])
        #expect(purged.roomsDeleted == 1)
        let gone = try await a.room(roomID, now: now)
        #expect(gone == nil)
    }

    @Test("twelve concurrent joins from two nodes: the room holds two members, never three")
    func concurrentJoins() async throws {
        let (a, b) = (try await Self.store(node: "join-a"), try await Self.store(node: "join-b"))
        let joinCode = try #require(JoinCode(Self.code()))
        _ = try await a.createPending(joinCode: joinCode, client1: try #require(DeviceID("j-a")), expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await b.accept(joinCode: joinCode, client2: try #require(DeviceID("j-b")), proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        let outcomes = try await withThrowingTaskGroup(of: JoinOutcome.self) { group in
            for index in 0..<12 {
                let (store, node) = index.isMultiple(of: 2) ? (a, "join-a") : (b, "join-b")
                group.addTask {
                    try await store.join(JoinRequest(room: room, member: MemberAddress(node: node, client: ClientID("c\(index)")!), device: DeviceID("d\(index)")),
                                         roomExpiresAt: 100_000, now: 2)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .joined = $0 { true } else { false } }.count == 2)
        #expect(outcomes.filter { $0 == .roomFull }.count == 10)
    }

    @Test("join needs a member's device id to rejoin or replace, and a room its members joined by device id admits no anonymous joiner")
    func memberProof() async throws {
        try await MemberProofChecks.run(on: try await Self.store(node: "proof-node"), code: Self.code())
    }

    @Test("presence tokens per side, the peer's chosen by device id, forgotten when invalid, deleted with the room")
    func presenceTokens() async throws {
        try await PresenceStoreChecks.run(on: try await Self.store(node: "presence-node"), code: Self.code(), node: "presence-node")
        try await PresenceStoreChecks.withoutTokens(on: try await Self.store(node: "presence-node-2"), code: Self.code(), node: "presence-node-2")
        try await PresenceStoreChecks.anonymous(on: try await Self.store(node: "presence-node-3"), code: Self.code(), node: "presence-node-3")
    }
}
