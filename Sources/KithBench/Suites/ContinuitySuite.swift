import Foundation
import Kith
import KithContinuity
import KithFeed
import KithIdentity

/// Suite `continuity` (issue 28): backup and restore of an account following a feed of 10,000 and 100,000
/// messages: seconds, file size against the stored envelope bytes, and the peak resident memory of each step. Each
/// step runs in a child process (`ContinuityChild`), so its peak (`VmHWM`) is the step's own: the runtime, the
/// opened account and the operation, not the fixture this process built.
enum ContinuitySuite: BenchSuite {
    static let name = "continuity"
    static let sizes = [10_000, 100_000]

    static func run(report: (BenchFigure) -> Void) async throws {
        for count in sizes {
            try await measure(count: count, report: report)
        }
    }

    static func measure(count: Int, report: (BenchFigure) -> Void) async throws {
        let author = try Identity(seed: try Seed(bytes: [UInt8](repeating: 9, count: 32)))
        let content = [UInt8](repeating: 0xA5, count: 420)
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        var last: MessageID?
        for index in 0..<count {
            let envelope = try Envelope.sign(UnsignedEnvelope(
                sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last, type: "post",
                audience: .contacts, content: content), with: author)
            last = envelope.messageID
            lines.append(envelope.canonicalBytes)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-continuity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = AccountHome(directory: folder.appendingPathComponent("source"))
        let account = try await Account.create(home: home, scrypt: .testing, passphrase: { ContinuityChild.passphrase })
        _ = try await account.feed.importVerified(lines: lines, identityKey: author.publicKeys.identityKey)
        lines = []

        let file = folder.appendingPathComponent("bench.kithbackup")
        let key = RecoveryKey.generate().groupedText
        let backup = try ContinuityChild.run(["backup", home.directory.path, file.path, key])
        report(BenchFigure(name: "continuity.backup_\(count)_s", value: rounded(backup.seconds), unit: "s"))
        report(BenchFigure(name: "continuity.backup_\(count)_bytes", value: backup.fileBytes, unit: "bytes"))
        report(BenchFigure(name: "continuity.backup_\(count)_ratio", value: rounded(backup.fileBytes / max(1, backup.envelopeBytes)), unit: "ratio"))
        report(BenchFigure(name: "continuity.backup_\(count)_peak_rss", value: backup.peakMiB, unit: "MiB"))

        let restore = try ContinuityChild.run(["restore", file.path, key, folder.appendingPathComponent("restored").path])
        report(BenchFigure(name: "continuity.restore_\(count)_s", value: rounded(restore.seconds), unit: "s"))
        report(BenchFigure(name: "continuity.restore_\(count)_peak_rss", value: restore.peakMiB, unit: "MiB"))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
