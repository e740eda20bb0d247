import Foundation
import Kith
import KithDemo
import Testing

@Suite struct DemoCircleTests {
    @Test("step 14: an inner circle is built while syncing, one-time messages are read, revocation refuses Bob's next message")
    func circleStep() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-circle-\(UUID().uuidString)")
        _ = try await Demo.run(in: directory) { _ in }
        let summary = try await Demo.runCircle(in: directory, poolSize: 32) { _ in }
        #expect(summary.exchanged)
        #expect(summary.bobRead)
        #expect(summary.aliceRead)
        #expect(summary.lateMessageUnreadable)
        #expect(summary.nextMessageRefused)
    }
}
