import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("RendezvousClient against a live server")
struct RendezvousClientTests {
    @Test("client1 creates and polls, client2 accepts, both describe, purge and delete")
    func pairing() async throws {
        let (server, _, clock) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let rest = try RendezvousClient(baseURL: "http://localhost:\(try #require(client.port))/")
            let code = try #require(JoinCode("A1b2C3d4"))
            let alice = try #require(DeviceID("alice-ephemeral"))
            let bob = try #require(DeviceID("bob-ephemeral"))
            let created = try await rest.createRoom(CreateRoomRequest(joinCode: code, client1: alice, expiresInSeconds: 600))
            #expect(created.expiresAt.millisecondsSinceEpoch == clock.nowMilliseconds() + 600_000)
            #expect(try await rest.check(CheckRoomRequest(joinCode: code, client1: alice)) == .pending)
            await #expect(throws: RendezvousClientError.conflict("joinid_in_use")) {
                try await rest.createRoom(CreateRoomRequest(joinCode: code, client1: bob, expiresInSeconds: 60))
            }
            let room = try await rest.accept(AcceptRoomRequest(joinCode: code, client2: bob))
            #expect(try await rest.check(CheckRoomRequest(joinCode: code, client1: alice)) == .accepted(room))
            #expect(try await rest.room(room, asMember: bob) == RoomInfo(roomID: room, client1: alice, client2: bob))
            #expect(try await rest.roomExists(room))
            await #expect(throws: RendezvousClientError.notFoundOrExpired) {
                try await rest.accept(AcceptRoomRequest(joinCode: try #require(JoinCode("zzzzzz")), client2: bob))
            }
            let purged = try await rest.purge(PurgeRequest(deviceIDs: [alice]))
            #expect(purged == PurgeResponse(deviceIDCount: 1, roomsDeleted: 1, pendingsDeleted: 0))
            #expect(try await rest.room(room, asMember: alice) == nil)
            #expect(try await rest.roomExists(room) == false)
            try await rest.deleteRoom(room)
        }
    }

    @Test("an unreachable server and a bad URL are reported as such")
    func failures() async throws {
        #expect(throws: RendezvousClientError.invalidURL("ftp://x")) { try RendezvousClient(baseURL: "ftp://x") }
        let rest = try RendezvousClient(baseURL: "http://127.0.0.1:1", timeout: .seconds(2))
        await #expect {
            _ = try await rest.roomExists(try #require(RoomID("r")))
        } throws: { error in
            if case .transport = error as? RendezvousClientError { return true }
            return false
        }
        await #expect(throws: RendezvousClientError.invalidURL("http://x")) {
            try await SignalingClient.connect(to: "http://x") { _ in }
        }
    }
}
