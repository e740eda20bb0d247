import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

extension FeedCommand {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import an exported feed, verified with the author's identity key.",
            discussion: """
                Only entries of one feed are imported: the feed of --key, or without it the followed feed that the first entry names; lines of any other feed are refused with their reason (feed_id_mismatch). The file is read line by line (a line longer than an envelope's 65,536-byte limit is refused as too_large; blank lines are skipped), so memory stays flat whatever its size. Entries are committed in transactions of 10,000; a long import shows its progress on standard error (a terminal). If storage fails, the batches already committed stay imported and the command can simply be run again: what is held is skipped. The first \(FeedFileRejections.defaultLimit) refused lines are printed, the rest counted per reason. Exit 1 when any line was refused.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The author's Ed25519 identity key (base64url), as printed by `kith id`; optional for a contact's feed (the key comes from the contact record).")
        var key: String?

        @Argument(help: "The export file (- for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let identityKey = try key.map(parseIdentityKey)
                let reader = try FeedLineReader.open(path: file)
                let account = try await openAccount(global)
                // A long import redraws one line on standard error (a terminal, not --json) per batch.
                let drawsProgress = !global.json && isatty(STDERR_FILENO) != 0
                let drew = Atomic(false)
                let result = try await account.feed.importFile(reader, identityKey: identityKey) { done in
                    guard drawsProgress else { return }
                    drew.store(true, ordering: .relaxed)
                    FileHandle.standardError.write(Data("\r\u{1B}[2KImporting: \(done.committed) entries committed".utf8))
                }
                if drew.load(ordering: .relaxed) { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
                let counts: [(String, Int)] = [
                    ("stored", result.stored), ("pending", result.pending), ("duplicate", result.duplicates),
                    ("relay_only", result.relayOnly), ("rejected", result.rejections.total),
                ]
                if global.json {
                    var object = FeedReportJSON.rejections(result.rejections)
                    for (name, count) in counts { object[name] = .integer(Int64(count)) }
                    object["feed_id"] = .string(result.feed.string)
                    object["lines"] = .integer(Int64(result.lines))
                    object["linked_from_pending"] = .integer(Int64(result.linkedFromPending))
                    Output.json(.object(object))
                } else {
                    let summary = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
                    Output.line("Imported \(result.lines) entries: \(summary.isEmpty ? "nothing to import" : summary)")
                    FeedReportJSON.printRejections(result.rejections, to: Output.error)
                }
                if !result.isClean { throw ExitCode(1) }
            }
        }
    }
}
