import Foundation
import Kith
import KithDemo
import Testing

@Suite struct DemoTests {
    @Test func demoRunsEveryStep() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-test-\(UUID().uuidString)")
        var lines: [String] = []
        let summary = try await Demo.run(in: directory) { lines.append($0) }
        #expect(summary.authored >= 5)
        #expect(summary.bobStored == summary.authored)
        #expect(summary.tamperDetected)
        #expect(summary.forkDetected)
        #expect(summary.linkedFromPending > 0)
        #expect(summary.directReadInOrder)
        #expect(summary.directReplyRead)
        #expect(summary.groupJoined && summary.groupMessagesRead && summary.removedLockedOut && summary.groupExploded)
        #expect(lines.contains { $0.hasPrefix("== 7.") })
        #expect(summary.inviteJoined && summary.secondUseRefused && summary.revokedThenFreshWorked)
        #expect(summary.personaJoined && summary.personaMainFeedsHidden && summary.personaGone)
        await #expect(throws: KithError.self) { try await Demo.run(in: directory) { _ in } }
    }

    @Test func radioStepResumesAfterTheDisconnect() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-radio-\(UUID().uuidString)")
        _ = try await Demo.run(in: directory) { _ in }
        let radio = try await Demo.runRadio(in: directory, posts: 12) { _ in }
        #expect(radio.firstSessionInterrupted)
        #expect(radio.delivered >= 12)
        #expect(radio.bytesOnAir > radio.envelopeBytes)
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: { "kith-demo-passphrase" })
        #expect(radio.bobHead == (try await alice.feed.headSequence(of: alice.feedID)))
    }

    @Test func theDemoShowsContactsReadingAndStrangersLockedOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-contacts-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines: [String] = []
        let summary = try await Demo.run(in: directory) { lines.append($0) }
        #expect(summary.contactReadPost)
        #expect(summary.strangerLockedOut)
        #expect(lines.contains { $0.contains("\u{2588}") })
        // The card's QR code is the compact card's, as `kith card --qr` draws it (version 10 to 12, at most 73 columns
        // with its quiet zone), not the full card's (149 columns, wider than most terminals).
        let qrLines = lines.joined(separator: "\n").split(separator: "\n").filter { $0.contains("\u{2588}") || $0.contains("\u{2580}") }
        let widest = qrLines.map { $0.trimmingCharacters(in: .whitespaces).count }.max() ?? 0
        #expect(widest > 0 && widest <= 73, "QR code \(widest) columns wide")
    }
}
