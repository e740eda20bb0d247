import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group update GROUP`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh your keys in the group (a commit if you are the committer, else a proposal the committer applies)."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                let after = try await account.groups.updateKeys(group.id)
                return (after, after.isCommitter ? "Keys updated (epoch \(after.epoch))." : "Key update proposed; the committer applies it when it syncs your feed.")
            }
        }
    }
}
