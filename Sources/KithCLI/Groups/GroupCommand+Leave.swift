import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group leave GROUP`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask to leave the group (the committer commits your departure).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target, ending: .left) { account, group in
                (try await account.groups.leave(group.id), "Departure proposed; you are out once the committer applies it.")
            }
        }
    }
}
