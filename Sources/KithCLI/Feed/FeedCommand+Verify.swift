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
