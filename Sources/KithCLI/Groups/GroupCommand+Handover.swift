import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group handover GROUP MEMBER`.
    struct Handover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hand the committer role to another member (committer only).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "The new committer: a contact name, a feed id, or a feed id prefix of a member.")
        var member: String

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                let feed = try await GroupShow.resolveMember(member, in: group, account: account)
                return (try await account.groups.handOver(group.id, to: feed), "Handed over: they commit from now on.")
            }
        }
    }
}
