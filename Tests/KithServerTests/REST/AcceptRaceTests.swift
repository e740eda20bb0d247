import KithRendezvous
import KithServer
import Testing

@Suite("One accept winner under concurrency")
struct AcceptRaceTests {
    @Test("64 concurrent accepts of one code on the store: exactly one winner, the rest conflict")
    func storeRace() async throws {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let code = try #require(JoinCode("123456"))
        _ = try await store.createPending(joinCode: code, client1: try #require(DeviceID("dev-a")), expiresAt: 60_000, now: 0)
        let outcomes = await withTaskGroup(of: AcceptOutcome?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    guard let device = DeviceID("dev-\(index)") else { return nil }
                    return try? await store.accept(joinCode: code, client2: device, proposedRoom: .random(), roomExpiresAt: 600_000, now: 1)
                }
            }
            var all: [AcceptOutcome?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let winners = outcomes.compactMap { outcome -> RoomID? in
            if case .accepted(let room)? = outcome { return room }
            return nil
        }
        #expect(winners.count == 1)
        #expect(outcomes.filter { $0 == .conflict }.count == 63)
        #expect(try await store.check(joinCode: code, client1: try #require(DeviceID("dev-a")), now: 2) == .accepted(try #require(winners.first)))
    }

    @Test("32 concurrent accepts over HTTP on a live server: one 200, the rest 409")
    func httpRace() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            // A loaded machine can take longer than the default 10 s to answer 32 requests at once.
            let rest = try RendezvousClient(baseURL: "http://localhost:\(try #require(client.port))", timeout: .seconds(120))
            _ = try await rest.createRoom(CreateRoomRequest(joinCode: try #require(JoinCode("123456")), client1: try #require(DeviceID("dev-a")), expiresInSeconds: 60))
            let results = await withTaskGroup(of: Result<RoomID, RendezvousClientError>.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        guard let code = JoinCode("123456"), let device = DeviceID("dev-\(index)") else { return .failure(.closed) }
                        do throws(RendezvousClientError) {
                            return .success(try await rest.accept(AcceptRoomRequest(joinCode: code, client2: device)))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                var all: [Result<RoomID, RendezvousClientError>] = []
                for await result in group { all.append(result) }
                return all
            }
            let rooms = results.compactMap { try? $0.get() }
            #expect(rooms.count == 1)
            let conflicts = results.filter { if case .failure(.conflict) = $0 { return true } else { return false } }
            #expect(conflicts.count == 31, "\(results)")
        }
    }
}
