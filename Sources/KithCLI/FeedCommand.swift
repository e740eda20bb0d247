import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

/// `kith feed`: export, import and verify feeds as canonical lines.
struct Feed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export, import and verify feeds (one canonical envelope per line, oldest first).",
        subcommands: [Export.self, Import.self, Verify.self]
    )

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a feed, one canonical envelope per line, oldest first.")

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The feed to export (default: your own).")
        var feed: String?

        @Flag(help: "Include the content of your own self messages (a private backup; never share it).")
        var includeSelf = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let feedID = try feed.map { text throws -> FeedID in
                    do throws(IdentityError) { return try FeedID(text) } catch { throw KithError.identity(error) }
                }
                let lines = try await account.feed.export(feedID, includeSelfContent: includeSelf)
                var out = Data()
                for line in lines { out.append(contentsOf: line); out.append(0x0A) }
                FileHandle.standardOutput.write(out)
            }
        }
    }

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

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an exported feed against an identity key (standalone; needs no home).",
            discussion: """
                Exit 0 only when at least one entry is signed by that key and every line is a valid entry of that key's one chain; otherwise 1. Lines of any other feed are rejected (feed_id_mismatch); blank lines are skipped; a line longer than an envelope's 65,536-byte limit is rejected as too_large. The file is read line by line, so memory stays flat whatever its size. One line per rejected entry (line, sequence, reason code, message) for the first \(FeedFileRejections.defaultLimit), then a count per reason for the rest.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The author's original Ed25519 identity key (base64url).")
        var key: String

        @Flag(help: "Read the author's key rotations with the identity in --home (a contact of the author, or the author), so entries signed after a rotation verify too. Without it, verify needs no home, and entries after a rotation are rejected as rotated_key_unknown: the rotation's content is for contacts only.")
        var asContact = false

        @Argument(help: "The export file (- for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let contentReader = asContact ? await (try await openAccount(global)).feed.contentReader() : nil
                var verifier = ChainVerifier(identityKey: try parseIdentityKey(key), reader: contentReader)
                var reader = try FeedLineReader.open(path: file)
                var rejections = FeedFileRejections()
                while let line = reader.next() {
                    if let error = line.lengthError {
                        rejections.record(line: line.number, sequence: nil, error)
                        continue
                    }
                    for rejection in verifier.consume(line.bytes, number: line.number) {
                        rejections.record(line: rejection.line, sequence: rejection.sequence, code: rejection.code, message: rejection.message)
                    }
                }
                if let error = reader.readError { throw KithError.input(.invalid("reading \(file) failed: \(error)")) }
                let summary = verifier.summary
                let valid = rejections.total == 0 && summary.accepted > 0
                if global.json {
                    var object = FeedReportJSON.rejections(rejections)
                    object["valid"] = .bool(valid)
                    object["accepted"] = .integer(Int64(summary.accepted))
                    object["relay_only"] = .integer(Int64(summary.foreign))
                    Output.json(.object(object))
                } else {
                    FeedReportJSON.printRejections(rejections, to: Output.line)
                    var text = "\(summary.accepted) entries verified"
                    if summary.foreign > 0 { text += ", \(summary.foreign) of a later version kept for relay only" }
                    if valid {
                        Output.line("OK: \(text)")
                    } else if rejections.total > 0 {
                        Output.line("INVALID: \(rejections.total) rejected, \(text)")
                        if !asContact, rejections.countsByCode["rotated_key_unknown"] != nil {
                            Output.line("hint: the author rotated keys; a contact can check the rest with --as-contact")
                        }
                    } else {
                        Output.line("INVALID: no entry is signed by this key (\(text))")
                    }
                }
                if !valid { throw ExitCode(1) }
            }
        }
    }
}

/// How `kith feed verify` and `kith feed import` show refused lines.
enum FeedReportJSON {
    /// `rejected` (total), `rejections` (the kept ones), `rejections_omitted` and
    /// `rejections_by_code`.
    static func rejections(_ log: FeedFileRejections) -> JSONObject {
        var object = JSONObject()
        object["rejected"] = .integer(Int64(log.total))
        object["rejections"] = .array(log.kept.map { rejection in
            var entry = JSONObject()
            entry["line"] = .integer(Int64(rejection.line))
            entry["sequence"] = rejection.sequence.map { .integer(Int64($0)) } ?? .null
            entry["code"] = .string(rejection.code)
            entry["message"] = .string(rejection.message)
            return .object(entry)
        })
        object["rejections_omitted"] = .integer(Int64(log.omitted))
        var byCode = JSONObject()
        for (code, count) in log.countsByCode.sorted(by: { $0.key < $1.key }) { byCode[code] = .integer(Int64(count)) }
        object["rejections_by_code"] = .object(byCode)
        return object
    }

    /// One line per kept rejection, then one summarising the omitted ones.
    static func printRejections(_ log: FeedFileRejections, to print: (String) -> Void) {
        for rejection in log.kept {
            // Messages can quote the input (a malformed name, a type): escaped for the terminal.
            print("line \(rejection.line): sequence \(rejection.sequence.map(String.init) ?? "?"): \(rejection.code): \(TerminalText.escaped(rejection.message))")
        }
        guard log.omitted > 0 else { return }
        let codes = log.countsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("... \(log.omitted) more rejected lines not shown (all rejections by reason: \(codes))")
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
