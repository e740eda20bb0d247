import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group show GROUP`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a group: members, epoch, committer, explosion time.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { _, group in (group, nil) }
        }
    }
}
