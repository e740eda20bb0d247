import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithDemo
import KithFeed
import KithIdentity
import KithPushClient
import KithStore
import KithSync
import KithTerminal

/// `kith knock CONTACT [--json]`.
struct KnockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "knock",
        abstract: "Wake a contact's device with one of the push tokens they gave you (no content travels).",
        discussion: "A token the contact's gateway refuses (404: expired or revoked) is dropped and the next one is tried.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's feed id or name.")
    var contact: String

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let record = try await account.contacts.resolve(contact)
            let outcome = try await PushFlows.knock(account, contact: record.feedID)
            if global.json {
                var object = JSONObject()
                object["knocked"] = .string(record.feedID.string)
                object["name"] = .string(record.shownName)
                object["dropped_tokens"] = .integer(Int64(outcome.dropped))
                Output.json(.object(object))
            } else {
                Output.line("Knocked on \(TerminalText.escaped(record.shownName)): their device wakes and can sync with you."
                    + (outcome.dropped > 0 ? " (\(outcome.dropped) refused tokens were dropped.)" : ""))
            }
        }
    }
}
