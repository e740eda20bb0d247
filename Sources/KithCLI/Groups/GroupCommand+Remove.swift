import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group remove GROUP MEMBER`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a member (committer only); they read nothing sent afterwards.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "The member: a contact name, a feed id, or a feed id prefix of a member.")
        var member: String

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                let feed = try await GroupShow.resolveMember(member, in: group, account: account)
                return (try await account.groups.remove(group.id, member: feed), "Removed.")
            }
        }
    }
}
