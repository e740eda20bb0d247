import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith react`: reacts to a message with an emoji.
struct ReactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "react", abstract: "React to a message with one emoji (visible to your contacts).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The message id.")
    var message: String

    @Argument(help: "One emoji.")
    var emoji: String

    func run() async throws {
        try await Output.run {
            let target = try parseMessageID(message)
            let account = try await openAccount(global)
            let envelope = try await account.publishing.react(to: target, emoji: emoji)
            Output.published(envelope, json: global.json, what: "Reacted \(TerminalText.escaped(emoji))")
        }
    }
}
