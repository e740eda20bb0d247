import Foundation
import Kith
import KithDemo
import KithServer
import Testing

@Suite struct DemoInviteStrangerTests {
    @Test("step 10 end to end through an embedded kith serve: joiners who never met the creator, single use, revocation")
    func strangersJoinThroughTheRelay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-strangers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0), store: try SQLiteRendezvousStore.open(path: nil))
        var lines: [String] = []
        let summary = try await server.serving { url in
            try await Demo.run(in: directory, serverURL: url) { lines.append($0) }
        }
        #expect(summary.inviteJoined)
        #expect(summary.inviteJoinerWasStranger)
        #expect(summary.strangerReadGroup)
        #expect(summary.secondUseRefused)
        #expect(summary.revokedThenFreshWorked)
        #expect(lines.contains { $0.contains("joiners who never met the creator") })
        // Four exchanges, each through the relay; the server saw only ciphertext frames.
        #expect(server.relayStatistics.relayActivations >= 4)
        #expect(server.relayStatistics.bytesRelayed > 0)
    }
}
