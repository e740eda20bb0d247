import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

/// `kith group …`: group conversations on MLS carried by feeds (docs/GROUPS.md).
struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Group conversations: create, add, remove, update keys, leave, send, show, explode, KeyPackages.",
        discussion: """
            A group is an MLS group whose messages travel in every member's feed (audience group:ID). \
            The creator is its committer: only the committer adds and removes members; the others \
            propose their own key updates and departures, which the committer applies when it next \
            receives them. To be added, a contact first hands you a KeyPackage: every contact offers you \
            one when you sync with them (`kith group keys` shows what you hold), or on their device \
            `kith group keys share YOUR_NAME`, then sync.
            """,
        subcommands: [Create.self, Add.self, Remove.self, Update.self, Leave.self, Send.self, Show.self, Handover.self, Explode.self, Keys.self]
    )

    /// Opens the account, resolves the group, runs `operation`, and prints the group after it (with `lead` first).
    static func perform(
        _ global: GlobalOptions, _ target: Target, _ operation: (Account, GroupSummary) async throws -> (after: GroupSummary, lead: String?)
    ) async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let group = try await account.groups.resolve(target.group)
            let (after, lead) = try await operation(account, group)
            try await GroupShow.print(after, account: account, json: global.json, lead: lead)
        }
    }
}
