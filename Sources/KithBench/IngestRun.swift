import Crypto
import Foundation
import KithStore

/// One timed ingest of a feed's lines into a new file database (WAL, synchronous=FULL).
struct IngestRun {
    /// Messages per second of wall time.
    let rate: Double
    /// Messages per CPU second of this process (all threads).
    let cpuRate: Double

    static func measure(_ lines: [[UInt8]], key: Curve25519.Signing.PublicKey) throws -> IngestRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("bench.sqlite").path, storageKey: SymmetricKey(size: .bits256))
        try store.follow(identityKey: key)
        var stored = 0
        let cpuBefore = ProcessCPUClock.seconds()
        let seconds = try BenchClock.seconds {
            stored = try store.ingest(streaming: lines).acceptedCount
        }
        let cpuSeconds = ProcessCPUClock.seconds() - cpuBefore
        guard stored == lines.count else { throw BenchFailure("ingest stored \(stored) of \(lines.count)") }
        return IngestRun(rate: Double(lines.count) / seconds, cpuRate: Double(lines.count) / cpuSeconds)
    }
}
