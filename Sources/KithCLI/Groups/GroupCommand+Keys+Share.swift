import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand.Keys {
    /// `kith group keys share CONTACT...`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send contacts a fresh KeyPackage over your direct session.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Contacts: names or feed ids.")
        var contacts: [String]

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                var rows: [JSONValue] = []
                for contact in contacts {
                    let record = try await account.contacts.resolve(contact)
                    let envelope = try await account.groups.shareKeyPackage(with: record.feedID)
                    var object = JSONObject()
                    object["feed_id"] = .string(record.feedID.string)
                    object["message_id"] = .string(envelope.messageID.string)
                    rows.append(.object(object))
                    if !global.json {
                        Output.line("Sent \(TerminalText.escaped(record.shownName)) a KeyPackage (#\(envelope.sequence)); they can add you after a sync.")
                    }
                }
                if global.json { Output.json(.array(rows)) }
            }
        }
    }
}
