import Foundation
import Kith
import KithContinuity
import KithFeed
import KithIdentity

/// Suite `continuity` (issue 28): backup and restore of an account following a feed of 10,000 and 100,000
/// messages: seconds, file size against the stored envelope bytes, and the process's peak resident memory during
/// each step (`VmHWM`, reset before the step through `/proc/self/clear_refs`; it includes what the process already
/// held resident, so it is an upper bound of the step's own memory).
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
        let account = try await Account.create(home: home, scrypt: .testing, passphrase: { "bench" })
        _ = try await account.feed.importVerified(lines: lines, identityKey: author.publicKeys.identityKey)
        lines = []

        let file = folder.appendingPathComponent("bench.kithbackup")
        let key = RecoveryKey.generate()
        resetPeak()
        var summary: BackupSummary?
        let clock = ContinuousClock()
        var start = clock.now
        summary = try await account.backup(to: file, secret: .recoveryKey(key))
        let backupSeconds = seconds(clock.now - start)
        let backupPeak = peakMiB()
        guard let summary else { return }
        report(BenchFigure(name: "continuity.backup_\(count)_s", value: rounded(backupSeconds), unit: "s"))
        report(BenchFigure(name: "continuity.backup_\(count)_bytes", value: Double(summary.fileBytes), unit: "bytes"))
        report(BenchFigure(name: "continuity.backup_\(count)_ratio", value: rounded(Double(summary.fileBytes) / Double(max(1, summary.storedEnvelopeBytes))), unit: "ratio"))
        report(BenchFigure(name: "continuity.backup_\(count)_peak_rss", value: backupPeak, unit: "MiB"))

        resetPeak()
        start = clock.now
        _ = try await Account.restore(from: file, secret: .recoveryKey(key), home: AccountHome(directory: folder.appendingPathComponent("restored")),
                                      scrypt: .testing, passphrase: { "bench" })
        report(BenchFigure(name: "continuity.restore_\(count)_s", value: rounded(seconds(clock.now - start)), unit: "s"))
        report(BenchFigure(name: "continuity.restore_\(count)_peak_rss", value: peakMiB(), unit: "MiB"))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// Resets the kernel's peak-RSS mark of this process (Linux; a no-op elsewhere).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func peakMiB() -> Double { (Double(VerifyPeakMemory.peakResidentKilobytes()) / 1024).rounded() }
}
