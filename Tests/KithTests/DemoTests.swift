import Foundation
import Testing
@testable import Kith

@Suite struct DemoTests {
    @Test func demoRunsEveryStep() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-test-\(UUID().uuidString)")
        var lines: [String] = []
        let summary = try Demo.run(in: directory) { lines.append($0) }
        #expect(summary.authored >= 5)
        #expect(summary.bobStored == summary.authored)
        #expect(summary.tamperDetected)
        #expect(summary.forkDetected)
        #expect(summary.linkedFromPending > 0)
        #expect(lines.contains { $0.hasPrefix("Done.") })
        #expect(throws: KithError.self) { try Demo.run(in: directory) { _ in } }
    }
}
