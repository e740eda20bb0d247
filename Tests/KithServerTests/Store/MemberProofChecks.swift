import KithRendezvous
import KithServer
import Testing

/// The join rules of a leaked room id, run against any store (SQLite here, PostgreSQL in `PostgresStoreTests`).
enum MemberProofChecks {
    static func run(on store: some RendezvousStore, code: String) async throws {
        let joinCode = try #require(JoinCode(code))
        let (alice, bob) = (try #require(DeviceID("proof-a")), try #require(DeviceID("proof-b")))
        _ = try await store.createPending(joinCode: joinCode, client1: alice, expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(joinCode: joinCode, client2: bob, proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        func address(_ name: String) throws -> MemberAddress { MemberAddress(node: "proof-node", client: try #require(ClientID(name))) }
        func join(_ name: String, _ device: DeviceID?) async throws -> JoinOutcome {
            try await store.join(JoinRequest(room: room, member: try address(name), device: device), roomExpiresAt: 100_000, now: 2)
        }
        guard case .joined(let first) = try await join("alice-1", alice) else { Issue.record("alice not joined"); return }
        #expect(first.isInitiator)
        // Only the room id: a made-up device id and no device id both find no place while Bob is away.
        #expect(try await join("eve-1", try #require(DeviceID("proof-x"))) == .roomNotFound)
        #expect(try await join("eve-2", nil) == .roomNotFound)
        guard case .joined(let second) = try await join("bob-1", bob) else { Issue.record("bob not joined"); return }
        #expect(!second.isInitiator && second.replaced == nil)
        // A made-up device id replaces nobody; Bob's own device id replaces his stale socket.
        #expect(try await join("eve-3", try #require(DeviceID("proof-x"))) == .roomFull)
        guard case .joined(let again) = try await join("bob-2", bob) else { Issue.record("bob not rejoined"); return }
        #expect(again.replaced == (try address("bob-1")))
        #expect(!again.isInitiator)
    }
}

@Suite("Member proof in the SQLite store")
struct SQLiteMemberProofTests {
    @Test("join needs a member's device id to rejoin or replace, and a room its members joined by device id admits no anonymous joiner")
    func memberProof() async throws {
        try await MemberProofChecks.run(on: try SQLiteRendezvousStore.open(path: nil), code: "proof-code")
    }
}
