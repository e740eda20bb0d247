import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group send GROUP TEXT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send text to the group (an MLS PrivateMessage in your feed).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "The text (at most 2,000 characters).")
        var text: String

        func run() async throws {
            try await Output.run {
                let account = try await selectAccount(global, holdingGroup: target.group).account
                let group = try await account.groups.resolve(target.group)
                let envelope = try await account.groups.send(group.id, text: text)
                if global.json {
                    var object = JSONObject()
                    object["message_id"] = .string(envelope.messageID.string)
                    object["sequence"] = .integer(Int64(envelope.sequence))
                    object["group_id"] = .string(group.id.string)
                    object["epoch"] = .integer(Int64(clamping: group.epoch))
                    Output.json(.object(object))
                } else {
                    Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(group.name ?? group.id.string)) (message \(envelope.messageID))")
                }
            }
        }
    }
}
