import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

extension CircleCommand {
    /// `kith circle send CONTACT TEXT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a one-time message to an inner-circle contact.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Argument(help: "The text (at most 2,000 characters).")
        var text: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let envelope = try await account.circle.send(text, to: record.feedID)
                let pools = try await account.circle.status().first { $0.feedID == record.feedID.string }?.pools
                if global.json {
                    var object = JSONObject()
                    object["message_id"] = .string(envelope.messageID.string)
                    object["sequence"] = .integer(Int64(envelope.sequence))
                    object["audience"] = .string(envelope.audience.description)
                    object["keys_left"] = .integer(Int64(pools?.peerRemaining ?? 0))
                    Output.json(.object(object))
                } else {
                    Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(record.shownName)) under a one-time key (\(pools?.peerRemaining ?? 0) left)")
                    if pools?.needsRenewal == true {
                        Output.line("Their pool is below 10 %: run `kith circle add \(TerminalText.escaped(record.shownName))` at your next meeting.")
                    }
                }
            }
        }
    }
}
