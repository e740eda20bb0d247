import Foundation
import Kith
import KithDemo
import Testing

@Suite struct DemoRescueTests {
    @Test("step 15: Bob loses his phone; two guardians release, the backup is restored, Alice sees a verified move and his next post")
    func rescueStep() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-rescue-\(UUID().uuidString)")
        _ = try await Demo.run(in: directory) { _ in }
        let summary = try await Demo.runRescue(in: directory) { _ in }
        #expect(summary.sharesHeld)
        #expect(summary.oldHomeGone)
        #expect(summary.safetyCodesMatched)
        #expect(summary.rebuilt)
        #expect(summary.restored)
        #expect(summary.syncedWithMovedDevice)
        #expect(summary.verifiedMoveSeen)
        #expect(summary.nextPostRead)
    }
}
