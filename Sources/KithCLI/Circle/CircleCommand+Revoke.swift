import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

extension CircleCommand {
    /// `kith circle revoke CONTACT`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke trust: delete both pools at once; the contact is told at the next sync and a new exchange is needed."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                let had = try await account.circle.revoke(record.feedID)
                if global.json {
                    var object = JSONObject()
                    object["contact"] = .string(record.feedID.string)
                    object["pools_deleted"] = .bool(had)
                    Output.json(.object(object))
                } else {
                    Output.line(had
                        ? "Revoked: both pools with \(TerminalText.escaped(record.shownName)) are deleted; they are told at the next sync."
                        : "No pools with \(TerminalText.escaped(record.shownName)); they are told at the next sync that you revoked.")
                }
            }
        }
    }
}
