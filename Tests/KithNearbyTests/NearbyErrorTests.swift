import KithAccountFixtures
import KithSync
import Testing
@testable import KithNearby
@testable import Kith

@Suite("nearby failures surface as typed KithError cases", .timeLimit(.minutes(3)))
struct NearbyErrorTests {
    @Test("a TCP port already in use is a sync transport error, not invalid input")
    func bindOnAUsedPortIsASyncError() async throws {
        let (alice, _) = try await MetAccounts.met()
        let taken = try await TCPSyncListener.bind(host: "127.0.0.1", port: 0)
        let options = NearbyOptions(tcpHost: "127.0.0.1", tcpPort: taken.port, duration: 1, beaconInterval: 0.1)
        await #expect {
            try await NearbySync(agent: SyncAgent(account: alice), datagrams: InMemoryNearbyNetwork().join(host: "127.0.0.1"), options: options).run()
        } throws: { error in
            guard case .sync(.transport)? = error as? KithError else { return false }
            return true
        }
        await taken.close()
    }
}
