import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension PrekeysCommand {
    /// `kith prekeys import CONTACT HANDOVER`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store the one-time prekeys a contact handed you in person.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Argument(parsing: .allUnrecognized, help: "The handover text, or a file containing it, or - for standard input.")
        var handover: [String] = []

        func run() async throws {
            try await Output.run {
                guard let argument = handover.first, handover.count == 1 else { throw KithError.input(.invalid("pass exactly one handover text or file")) }
                let text: String
                if argument == "-" || FileManager.default.fileExists(atPath: argument) {
                    text = String(decoding: try Output.readLines(argument, maxBytes: 1 << 20).joined(), as: UTF8.self)
                } else {
                    text = argument
                }
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let added = try await account.direct.importPrekeyHandover(text, from: record.feedID)
                if global.json {
                    var object = JSONObject()
                    object["added"] = .integer(Int64(added))
                    Output.json(.object(object))
                } else {
                    Output.line("Stored \(added) one-time prekeys of \(TerminalText.escaped(record.shownName)).")
                }
            }
        }
    }
}
