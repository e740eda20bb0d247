import Foundation
import Kith
import KithCanonical
import KithFeed
import KithIdentity

/// `feed.verify_peak_rss_mb`: the peak resident memory of verifying a feed file the way
/// `kith feed verify` does (``FeedLineReader`` + ``ChainVerifier``), measured in a child process
/// so that nothing the benchmark itself holds counts.
enum VerifyPeakMemory {
    /// The hidden command line of the child: `kith-bench _verify-peak-rss FILE KEY`.
    static let command = "_verify-peak-rss"

    /// Writes `lines` to a temporary file, verifies it in a child process, returns its peak RSS in MiB.
    static func measure(lines: [[UInt8]], key: IdentityPublicKey) throws -> Double {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-verify-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var data = Data()
        data.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for line in lines { data.append(contentsOf: line); data.append(0x0A) }
        try data.write(to: url)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.arguments = [command, url.path, Base64URL.encode(key.rawRepresentation)]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = text.split(separator: " ")
        guard child.terminationStatus == 0, fields.count == 2, let kilobytes = Double(fields[0]),
              Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == lines.count else {
            throw BenchFailure("verify child failed: \(text)")
        }
        return kilobytes / 1024
    }

    /// The child: verifies FILE with KEY, prints `PEAK_RSS_KB ACCEPTED`.
    static func runChild(_ arguments: [String]) -> Never {
        guard arguments.count == 2, let key = try? PublicKeys.identityKey(fromBase64URL: arguments[1]),
              let reader = try? FeedLineReader.open(path: arguments[0]) else {
            FileHandle.standardError.write(Data("usage: kith-bench \(command) FILE KEY\n".utf8))
            exit(64)
        }
        var verifier = ChainVerifier(identityKey: key)
        var rejected = 0
        for line in reader { rejected += verifier.consume(line.bytes, number: line.number).count }
        let kilobytes = peakResidentKilobytes()
        FileHandle.standardOutput.write(Data("\(kilobytes) \(rejected == 0 ? verifier.summary.accepted : -1)\n".utf8))
        exit(0)
    }

    /// This process's peak resident memory in KiB. On Linux from `VmHWM` (the high-water mark of
    /// this image only: `ru_maxrss` keeps the parent's peak across fork and exec).
    static func peakResidentKilobytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let value = Int(line.split(separator: " ").dropFirst().first ?? "") {
            return value
        }
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #endif
    }
}
