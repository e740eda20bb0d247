import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith introduce`: introduces one contact to another.
struct IntroduceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "introduce", abstract: "Introduce a contact to another contact (only the recipient can read it).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact to introduce (feed id or name).")
    var contact: String

    @Option(parsing: .unconditional, help: "The contact who receives the introduction (feed id or name).")
    var to: String

    @Option(help: "A note (at most 256 characters).")
    var note: String?

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let introduced = try await account.contacts.resolve(contact)
            let recipient = try await account.contacts.resolve(to)
            let envelope = try await account.contacts.introduce(introduced.feedID, to: recipient.feedID, note: note)
            Output.published(envelope, json: global.json, what: "Introduced \(TerminalText.escaped(contact)) to \(TerminalText.escaped(to))")
        }
    }
}
