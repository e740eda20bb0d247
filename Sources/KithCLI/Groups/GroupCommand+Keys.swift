import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group keys [status|share|export|import|auto]`.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "KeyPackages: hand a contact one (over your session or in person), so they can add you to groups.",
            discussion: """
                Contacts are offered one automatically when you sync with them (`kith group keys auto` turns that \
                off); `share` sends one more on request. Without a subcommand: the status per contact.
                """,
            subcommands: [Status.self, Share.self, Export.self, Import.self, Auto.self],
            defaultSubcommand: Status.self
        )
    }
}
