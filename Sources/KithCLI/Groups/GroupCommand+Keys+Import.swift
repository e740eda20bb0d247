import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand.Keys {
    /// `kith group keys import CONTACT FILE`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import a KeyPackage a contact handed you in person.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact who handed it over: a name or a feed id.")
        var contact: String

        @Argument(help: "A file holding the KeyPackage text (- for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let text = String(decoding: try Output.readLines(file, maxBytes: 8192).joined(), as: UTF8.self)
                try await account.groups.importKeyPackage(text, from: record.feedID)
                let held = try await account.groups.keyPackageCount(of: record.feedID)
                if global.json {
                    var object = JSONObject()
                    object["feed_id"] = .string(record.feedID.string)
                    object["held"] = .integer(Int64(held))
                    Output.json(.object(object))
                } else {
                    Output.line("Imported a KeyPackage of \(TerminalText.escaped(record.shownName)); you hold \(held). Add them: kith group add GROUP \(TerminalText.escaped(record.shownName))")
                }
            }
        }
    }
}
