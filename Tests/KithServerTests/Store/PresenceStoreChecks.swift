import KithRendezvous
import KithServer
import Testing

/// Push tokens with rooms (Inviso's `client1_token` / `client2_token`), run against any store (SQLite here, PostgreSQL
/// in `PostgresStoreTests`).
enum PresenceStoreChecks {
    static let iosToken = String(repeating: "ab12", count: 16)
    static let androidToken = "fcm-token:APA91b_x"

    static func run(on store: some RendezvousStore, code: String, node: String) async throws {
        let joinCode = try #require(JoinCode(code))
        let (alice, bob) = (try #require(DeviceID("\(code)-a")), try #require(DeviceID("\(code)-b")))
        let aliceToken = try #require(PresenceToken(platform: .ios, text: iosToken))
        let bobToken = try #require(PresenceToken(platform: .android, text: androidToken))
        _ = try await store.createPending(joinCode: joinCode, client1: alice, presence: aliceToken, expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(
            joinCode: joinCode, client2: bob, presence: bobToken, proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        func address(_ name: String) throws -> MemberAddress { MemberAddress(node: node, client: try #require(ClientID(name))) }
        func join(_ name: String, _ device: DeviceID?) async throws {
            guard case .joined = try await store.join(JoinRequest(room: room, member: try address(name), device: device), roomExpiresAt: 100_000, now: 2)
            else { Issue.record("\(name) not joined"); return }
        }

        // Not in a room: nobody to push.
        #expect(try await store.presencePeer(of: try address("stranger"), now: 3) == nil)
        // Alice alone: Bob's token; Bob alone: Alice's.
        try await join("alice-1", alice)
        #expect(try await store.presencePeer(of: try address("alice-1"), now: 3) == PresencePeer(room: room, side: .client2, token: bobToken))
        // Both in: the peer is connected, no push.
        try await join("bob-1", bob)
        #expect(try await store.presencePeer(of: try address("alice-1"), now: 3) == nil)
        _ = try await store.leave(try address("alice-1"), roomExpiresAt: 100_000)
        #expect(try await store.presencePeer(of: try address("bob-1"), now: 3) == PresencePeer(room: room, side: .client1, token: aliceToken))

        // A token the push service called invalid is forgotten (only while the side still holds it).
        try await store.forgetPresenceToken(PresencePeer(room: room, side: .client1, token: try #require(PresenceToken(platform: .ios, text: "other"))))
        #expect(try await store.presencePeer(of: try address("bob-1"), now: 3)?.token == aliceToken)
        try await store.forgetPresenceToken(PresencePeer(room: room, side: .client1, token: aliceToken))
        #expect(try await store.presencePeer(of: try address("bob-1"), now: 3) == nil)
        _ = try await store.leave(try address("bob-1"), roomExpiresAt: 100_000)

        // Tokens go with the room.
        try await join("alice-2", alice)
        #expect(try await store.presencePeer(of: try address("alice-2"), now: 3)?.token == bobToken)
        _ = try await store.deleteRoom(room)
        #expect(try await store.room(room, now: 3) == nil)
        #expect(try await store.presencePeer(of: try address("alice-2"), now: 3) == nil)
    }

    /// A member that joined without a device id (Inviso's fallback): the first side with a token.
    static func anonymous(on store: some RendezvousStore, code: String, node: String) async throws {
        let joinCode = try #require(JoinCode(code))
        let token = try #require(PresenceToken(platform: .android, text: androidToken))
        _ = try await store.createPending(joinCode: joinCode, client1: try #require(DeviceID("\(code)-a")), expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(
            joinCode: joinCode, client2: try #require(DeviceID("\(code)-b")), presence: token, proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        let member = MemberAddress(node: node, client: try #require(ClientID("\(code)-m")))
        _ = try await store.join(JoinRequest(room: room, member: member, device: nil), roomExpiresAt: 100_000, now: 2)
        #expect(try await store.presencePeer(of: member, now: 3) == PresencePeer(room: room, side: .client2, token: token))
    }

    /// Pairings without tokens behave as before: no push target.
    static func withoutTokens(on store: some RendezvousStore, code: String, node: String) async throws {
        let joinCode = try #require(JoinCode(code))
        _ = try await store.createPending(joinCode: joinCode, client1: try #require(DeviceID("\(code)-a")), expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(
            joinCode: joinCode, client2: try #require(DeviceID("\(code)-b")), proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        let member = MemberAddress(node: node, client: try #require(ClientID("\(code)-m")))
        _ = try await store.join(JoinRequest(room: room, member: member, device: DeviceID("\(code)-a")), roomExpiresAt: 100_000, now: 2)
        #expect(try await store.presencePeer(of: member, now: 3) == nil)
    }
}

@Suite("SQLite rendezvous store: presence tokens")
struct SQLitePresenceStoreTests {
    @Test("tokens per side, the peer's chosen by device id, forgotten when invalid, deleted with the room")
    func presence() async throws {
        try await PresenceStoreChecks.run(on: try SQLiteRendezvousStore.open(path: nil), code: "presence-1", node: "n1")
    }

    @Test("pairings without tokens have no push target; a member without device id pushes to the first side with a token")
    func withoutTokens() async throws {
        try await PresenceStoreChecks.withoutTokens(on: try SQLiteRendezvousStore.open(path: nil), code: "presence-2", node: "n1")
        try await PresenceStoreChecks.anonymous(on: try SQLiteRendezvousStore.open(path: nil), code: "presence-4", node: "n1")
    }

    @Test("purge deletes the tokens with the rooms and pairings")
    func purge() async throws {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let joinCode = try #require(JoinCode("presence-3"))
        let (alice, bob) = (try #require(DeviceID("p3-a")), try #require(DeviceID("p3-b")))
        let token = try #require(PresenceToken(platform: .ios, text: PresenceStoreChecks.iosToken))
        _ = try await store.createPending(joinCode: joinCode, client1: alice, presence: token, expiresAt: 60_000, now: 0)
        guard case .accepted(let room) = try await store.accept(
            joinCode: joinCode, client2: bob, presence: token, proposedRoom: .random(), roomExpiresAt: 100_000, now: 1)
        else { Issue.record("not accepted"); return }
        let member = MemberAddress(node: "n1", client: try #require(ClientID("p3-m")))
        _ = try await store.join(JoinRequest(room: room, member: member, device: bob), roomExpiresAt: 100_000, now: 2)
        #expect(try await store.presencePeer(of: member, now: 3)?.token == token)
        _ = try await store.purge(deviceIDs: [alice])
        #expect(try await store.room(room, now: 3) == nil)
        #expect(try await store.presencePeer(of: member, now: 3) == nil)
    }
}
