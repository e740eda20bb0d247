import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group keys share CONTACT`.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "KeyPackages: hand a contact one (over your session or in person), so they can add you to groups.",
            subcommands: [Share.self, Export.self, Import.self]
        )
    }
}
