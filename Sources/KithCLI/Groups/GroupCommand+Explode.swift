import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group explode GROUP`.
    struct Explode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Explode the conversation now (committer only): members are removed and every copy is deleted."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target, ending: .exploded) { account, group in
                (try await account.groups.explode(group.id), "Exploded: state, keys and messages deleted here; members follow when they sync.")
            }
        }
    }
}
