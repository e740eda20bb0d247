import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith contact add|remove`: manage contacts.
struct ContactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact",
        abstract: "Add a contact from their card, or remove one.",
        subcommands: [Add.self, Remove.self]
    )
}
