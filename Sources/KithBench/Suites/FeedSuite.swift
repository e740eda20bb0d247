import Crypto
import Foundation
import KithFeed
import KithIdentity
import KithStore

/// Suite `feed`: the cost of authoring, verifying and ingesting envelopes, against the bare
/// Ed25519 verify rate of swift-crypto on the same machine.
enum FeedSuite: BenchSuite {
    static let name = "feed"
    static let ingestCount = 100_000

    static func run(report: (BenchFigure) -> Void) async throws {
        let identity = try Identity(seed: try Seed(bytes: [UInt8](repeating: 7, count: 32)))
        let content = [UInt8](repeating: 0xA5, count: 420)  // about a 600-byte envelope once encoded

        // Reference: bare Ed25519 verification of a typical signing input.
        let sample = try Envelope.sign(UnsignedEnvelope(sequence: 0, timestamp: 1_743_678_000, previous: nil, type: "post", audience: .contacts, content: content), with: identity)
        let signingBytes = sample.signingBytes()
        let key = identity.publicKeys.identityKey
        let bare = BenchClock.rate(minimumSeconds: 2) { _ = key.isValidSignature(sample.signature, for: signingBytes) }
        report(BenchFigure(name: "feed.ed25519_verify_bare", value: bare.rounded(), unit: "ops/s"))
        // The same per CPU second of this process: unlike wall time, not diluted by other processes
        // sharing the machine's cores.
        let bareCPU = ProcessCPUClock.rate(minimumSeconds: 2) { _ = key.isValidSignature(sample.signature, for: signingBytes) }
        report(BenchFigure(name: "feed.ed25519_verify_bare_cpu", value: bareCPU.rounded(), unit: "ops/cpu-s"))
        report(BenchFigure(name: "feed.envelope_bytes", value: Double(sample.canonicalBytes.count), unit: "bytes"))

        // Canonicalize + sign.
        var previous = sample.messageID
        var sequence: UInt32 = 1
        let signRate = try BenchClock.rate(minimumSeconds: 2) {
            let envelope = try Envelope.sign(UnsignedEnvelope(sequence: sequence, timestamp: 1_743_678_000, previous: previous, type: "post", audience: .contacts, content: content), with: identity)
            previous = envelope.messageID
            sequence += 1
        }
        report(BenchFigure(name: "feed.sign", value: signRate.rounded(), unit: "ops/s"))

        // Parse (canonical check) + verify.
        let bytes = sample.canonicalBytes
        let verifyRate = try BenchClock.rate(minimumSeconds: 2) {
            let envelope = try Envelope.parseV1(bytes)
            try envelope.verifySignature(with: key)
        }
        report(BenchFigure(name: "feed.verify", value: verifyRate.rounded(), unit: "ops/s"))

        // Ingest 100,000 messages into a file database (WAL, synchronous=FULL), one transaction per
        // batch of 10,000 (each commit syncs the WAL).
        var lines: [[UInt8]] = []
        lines.reserveCapacity(ingestCount)
        var last: MessageID?
        for index in 0..<ingestCount {
            let envelope = try Envelope.sign(UnsignedEnvelope(sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last, type: "post", audience: .contacts, content: content), with: identity)
            last = envelope.messageID
            lines.append(envelope.canonicalBytes)
        }
        // The same verification over the 100,000 distinct envelopes (parsed ahead): what the
        // signatures alone cost an ingest, memory traffic included, against the bare loop above.
        do {
            let parsed = try lines.map { try Envelope.parseV1($0) }
            let signingInputs = parsed.map { $0.signingBytes() }
            var valid = 0
            let distinctBefore = ProcessCPUClock.seconds()
            for (index, envelope) in parsed.enumerated() where key.isValidSignature(envelope.signature, for: signingInputs[index]) {
                valid += 1
            }
            let distinctSeconds = ProcessCPUClock.seconds() - distinctBefore
            guard valid == ingestCount else { throw BenchFailure("distinct verify accepted \(valid) of \(ingestCount)") }
            let distinctRate = Double(ingestCount) / distinctSeconds
            report(BenchFigure(name: "feed.ed25519_verify_distinct_cpu", value: distinctRate.rounded(), unit: "ops/cpu-s"))
            report(BenchFigure(name: "feed.verify_distinct_vs_bare_cpu", value: distinctRate / bareCPU, unit: "ratio"))
        }

        // Peak memory of `kith feed verify` over the 100,000-entry file (streamed: flat in file size).
        report(BenchFigure(name: "feed.verify_peak_rss_mb", value: (try VerifyPeakMemory.measure(lines: lines, key: key) * 10).rounded() / 10, unit: "MB"))

        // Ingest as an import does it: streamed in transactions of 10,000 (each commit syncs the
        // WAL), the signatures of each batch checked while the previous one commits.
        let ingest = try IngestRun.measure(lines, key: key)
        report(BenchFigure(name: "feed.ingest_100k", value: ingest.rate.rounded(), unit: "msgs/s"))
        report(BenchFigure(name: "feed.ingest_vs_bare_verify", value: ingest.rate / bare, unit: "ratio"))
        report(BenchFigure(name: "feed.ingest_100k_cpu", value: ingest.cpuRate.rounded(), unit: "msgs/cpu-s"))
        report(BenchFigure(name: "feed.ingest_vs_bare_verify_cpu", value: ingest.cpuRate / bareCPU, unit: "ratio"))

        // The same with every thread of the process on one core: the pipeline can then only hide
        // the time spent waiting for the disk, not use a second core.
        let pinned = try OneCore.run { () throws -> (bare: Double, ingest: IngestRun) in
            let bare = BenchClock.rate(minimumSeconds: 2) { _ = key.isValidSignature(sample.signature, for: signingBytes) }
            return (bare, try IngestRun.measure(lines, key: key))
        }
        if let pinned {
            report(BenchFigure(name: "feed.ed25519_verify_bare_one_core", value: pinned.bare.rounded(), unit: "ops/s"))
            report(BenchFigure(name: "feed.ingest_100k_one_core", value: pinned.ingest.rate.rounded(), unit: "msgs/s"))
            report(BenchFigure(name: "feed.ingest_vs_bare_verify_one_core", value: pinned.ingest.rate / pinned.bare, unit: "ratio"))
        }
    }
}

/// A benchmark that could not produce a valid figure.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
