import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith delete`: retracts one of your messages with a tombstone.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Retract one of your messages (tombstone; copies already synced are hidden, not erased).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The message id.")
    var message: String

    func run() async throws {
        try await Output.run {
            let target = try parseMessageID(message)
            let account = try await openAccount(global)
            let envelope = try await account.publishing.delete(target)
            Output.published(envelope, json: global.json, what: "Retracted \(target.string.prefix(8))")
        }
    }
}
