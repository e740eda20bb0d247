import Foundation
import Kith
import KithDemo
import KithServer
import Testing

@Suite struct DemoRelayTests {
    @Test("step 12: Alice and Bob pair by join code on an embedded server and sync through its relay")
    func relayStepDelivers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-relay-\(UUID().uuidString)")
        _ = try await Demo.run(in: directory) { _ in }
        let server = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0), store: try SQLiteRendezvousStore.open(path: nil))
        let summary = try await server.serving { url in
            try await Demo.runRelay(in: directory, serverURL: url, posts: 4) { _ in }
        }
        #expect(summary.completed)
        #expect(summary.delivered >= 4)
        #expect(summary.joinCode.count == 8)
        #expect(server.relayStatistics.relayActivations == 2)
        #expect(server.relayStatistics.bytesRelayed > 0)
    }
}
