import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith prekeys`: one-time prekey pools per contact (status, in-person handover, refill).
struct PrekeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prekeys",
        abstract: "One-time prekeys: status per contact, hand them over in person, refill over a session.",
        subcommands: [Status.self, Export.self, Import.self, Send.self],
        defaultSubcommand: Status.self
    )
}
