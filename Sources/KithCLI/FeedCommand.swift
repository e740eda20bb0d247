import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith feed`: export, import and verify feeds as canonical lines.
struct Feed: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export, import and verify feeds (one canonical envelope per line, oldest first).",
        subcommands: [Export.self, Import.self, Verify.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a feed, one canonical envelope per line, oldest first.")

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The feed to export (default: your own).")
        var feed: String?

        @Flag(help: "Include the content of your own self messages (a private backup; never share it).")
        var includeSelf = false

        func run() throws {
            try Output.run {
                let account = try openAccount(global)
                let feedID = try feed.map { text throws -> FeedID in
                    do throws(IdentityError) { return try FeedID(text) } catch { throw KithError.identity(error) }
                }
                let lines = try account.exportFeed(feedID, includeSelfContent: includeSelf)
                var out = Data()
                for line in lines { out.append(contentsOf: line); out.append(0x0A) }
                FileHandle.standardOutput.write(out)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import an exported feed, verified with the author's identity key.",
            discussion: "Entries are committed in transactions of 10,000; a long import shows its progress on standard error (a terminal). If storage fails, the batches already committed stay imported and the command can simply be run again: what is held is skipped."
        )

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The author's Ed25519 identity key (base64url), as printed by `kith id`; optional for a contact's feed (the key comes from the contact record).")
        var key: String?

        @Argument(help: "The export file (- for standard input).")
        var file: String

        func run() throws {
            try Output.run {
                let identityKey = try key.map(parseIdentityKey)
                let lines = try Output.readLines(file)
                let account = try openAccount(global)
                // A long import redraws one line on standard error (a terminal, not --json) per batch.
                let drawsProgress = !global.json && lines.count > FeedStore.streamingBatchSize && isatty(STDERR_FILENO) != 0
                let progress = { (done: IngestProgress) in
                    guard drawsProgress else { return }
                    FileHandle.standardError.write(Data("\r\u{1B}[2KImporting: \(done.committed) of \(lines.count) entries committed".utf8))
                }
                progress(IngestProgress())
                let report = try identityKey.map { try account.importFeed(lines: lines, identityKey: $0, progress: progress) }
                    ?? account.importKnownFeed(lines: lines, progress: progress)
                if drawsProgress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
                var counts: [String: Int] = [:]
                var rejected: [(Int, IngestOutcome)] = []
                for (index, outcome) in report.outcomes.enumerated() {
                    let name: String
                    switch outcome {
                    case .stored: name = "stored"
                    case .pending: name = "pending"
                    case .duplicate: name = "duplicate"
                    case .storedForRelay: name = "relay_only"
                    case .fork: name = "fork"; rejected.append((index + 1, outcome))
                    case .rejected: name = "rejected"; rejected.append((index + 1, outcome))
                    }
                    counts[name, default: 0] += 1
                }
                if global.json {
                    var object = JSONObject()
                    for (name, count) in counts.sorted(by: { $0.key < $1.key }) { object[name] = .integer(Int64(count)) }
                    object["linked_from_pending"] = .integer(Int64(report.promoted.count))
                    Output.json(.object(object))
                } else {
                    let summary = counts.sorted(by: { $0.key < $1.key }).map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                    Output.line("Imported \(lines.count) entries: \(summary)")
                }
                for (line, outcome) in rejected {
                    switch outcome {
                    case .rejected(let sequence, let error):
                        Output.error("line \(line): sequence \(sequence.map(String.init) ?? "?"): \(error.code): \(error.description)")
                    case .fork(let id, let sequence):
                        Output.error("line \(line): sequence \(sequence): fork: \(id) conflicts with the stored chain (evidence recorded)")
                    default: break
                    }
                }
                if !rejected.isEmpty { throw ExitCode(1) }
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an exported feed against an identity key (standalone; needs no home).",
            discussion: "Exit 0 when every line is a valid envelope of one chain from that key; otherwise 1, with one line per rejected entry: line, sequence, reason code, message."
        )

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The author's Ed25519 identity key (base64url).")
        var key: String

        @Argument(help: "The export file (- for standard input).")
        var file: String

        func run() throws {
            try Output.run {
                let report = ChainVerifier(identityKey: try parseIdentityKey(key)).verify(lines: try Output.readLines(file))
                if global.json {
                    var object = JSONObject()
                    object["valid"] = .bool(report.isValid)
                    object["accepted"] = .integer(Int64(report.accepted))
                    object["relay_only"] = .integer(Int64(report.foreign))
                    object["rejections"] = .array(report.rejections.map { rejection in
                        var entry = JSONObject()
                        entry["line"] = .integer(Int64(rejection.line))
                        entry["sequence"] = rejection.sequence.map { .integer(Int64($0)) } ?? .null
                        entry["code"] = .string(rejection.code)
                        entry["message"] = .string(rejection.message)
                        return .object(entry)
                    })
                    Output.json(.object(object))
                } else {
                    for rejection in report.rejections {
                        Output.line("line \(rejection.line): sequence \(rejection.sequence.map(String.init) ?? "?"): \(rejection.code): \(rejection.message)")
                    }
                    var summary = "\(report.accepted) entries verified"
                    if report.foreign > 0 { summary += ", \(report.foreign) of a later version kept for relay only" }
                    Output.line(report.isValid ? "OK: \(summary)" : "INVALID: \(report.rejections.count) rejected, \(summary)")
                }
                if !report.isValid { throw ExitCode(1) }
            }
        }
    }
}

/// Parses a base64url Ed25519 identity key given on the command line.
func parseIdentityKey(_ text: String) throws(KithError) -> IdentityPublicKey {
    do throws(IdentityError) {
        return try PublicKeys.identityKey(fromBase64URL: text)
    } catch {
        throw .identity(error)
    }
}
