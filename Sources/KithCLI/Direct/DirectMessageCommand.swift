import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith dm`: sends a direct message to one contact.
struct DirectMessageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dm",
        abstract: "Send an end-to-end encrypted direct message to one contact (Double Ratchet).",
        discussion: """
            The message goes into your feed with audience direct:FEED_ID; only that contact can read \
            it, after importing or syncing your feed. Read conversations with `kith log --with CONTACT`.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact: a name or a feed id.")
    var contact: String

    @Argument(help: "The text (at most 2,000 characters).")
    var text: String

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let record = try await account.contacts.resolve(contact)
            let before = try await account.direct.prekeyPool(with: record.feedID)?.handedRemaining ?? 0
            let envelope = try await account.direct.send(text, to: record.feedID)
            let refilled = max(0, (try await account.direct.prekeyPool(with: record.feedID)?.handedRemaining ?? 0) - before)
            if global.json {
                var object = JSONObject()
                object["message_id"] = .string(envelope.messageID.string)
                object["sequence"] = .integer(Int64(envelope.sequence))
                object["audience"] = .string(envelope.audience.description)
                object["prekeys_sent"] = .integer(Int64(refilled))
                Output.json(.object(object))
            } else {
                Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(record.shownName)) (message \(envelope.messageID))")
                if refilled > 0 { Output.line("Also sent \(TerminalText.escaped(record.shownName)) \(refilled) fresh one-time prekeys (their pool from you was low).") }
            }
        }
    }
}
