import Foundation
import Kith
import KithContinuity

/// The backup and restore steps of `kith-bench continuity`, each run in a child process so that its peak resident
/// memory (`VmHWM`) is the operation's own (plus the runtime and the opened account), not the benchmark's fixture.
enum ContinuityChild {
    /// The hidden command line: `kith-bench _continuity-step backup HOME FILE KEY` or `… restore FILE KEY HOME`.
    static let command = "_continuity-step"
    /// The passphrase of the bench's homes (scrypt `.testing`).
    static let passphrase = "bench"

    /// What a child reports.
    struct Step {
        /// Peak resident memory of the child, MiB.
        let peakMiB: Double
        /// Seconds the operation took (the account opening excluded).
        let seconds: Double
        /// The backup file's bytes and the stored envelope bytes (backup only).
        let fileBytes: Double
        let envelopeBytes: Double
    }

    /// Runs one step in a child process and parses its line `PEAK_KB SECONDS FILE_BYTES ENVELOPE_BYTES`.
    static func run(_ arguments: [String]) throws -> Step {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.arguments = [command] + arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard child.terminationStatus == 0, fields.count == 4 else { throw BenchFailure("continuity child \(arguments.first ?? "") failed: \(text)") }
        return Step(peakMiB: (fields[0] / 1024).rounded(), seconds: fields[1], fileBytes: fields[2], envelopeBytes: fields[3])
    }

    /// The child: performs the step and prints its line, or a message and exit 1.
    static func main(_ arguments: [String]) async -> Never {
        do {
            let clock = ContinuousClock()
            switch arguments.first {
            case "backup" where arguments.count == 4:
                let account = try await Account.open(home: AccountHome(directory: URL(fileURLWithPath: arguments[1])), passphrase: { passphrase })
                let key = try RecoveryKey(text: arguments[3])
                let start = clock.now
                let summary = try await account.backup(to: URL(fileURLWithPath: arguments[2]), secret: .recoveryKey(key))
                let seconds = ContinuitySuite.seconds(clock.now - start)
                print("\(VerifyPeakMemory.peakResidentKilobytes()) \(seconds) \(summary.fileBytes) \(summary.storedEnvelopeBytes)")
            case "restore" where arguments.count == 4:
                let key = try RecoveryKey(text: arguments[2])
                let start = clock.now
                _ = try await Account.restore(from: URL(fileURLWithPath: arguments[1]), secret: .recoveryKey(key),
                                              home: AccountHome(directory: URL(fileURLWithPath: arguments[3])),
                                              scrypt: .testing, passphrase: { passphrase })
                let seconds = ContinuitySuite.seconds(clock.now - start)
                print("\(VerifyPeakMemory.peakResidentKilobytes()) \(seconds) 0 0")
            default:
                FileHandle.standardError.write(Data("usage: kith-bench \(command) backup HOME FILE KEY | restore FILE KEY HOME\n".utf8))
                exit(64)
            }
            exit(0)
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
}
