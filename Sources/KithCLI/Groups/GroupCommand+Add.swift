import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group add GROUP CONTACT...`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add contacts (committer only); each gets a Welcome as a direct message.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "Contacts to add: names or feed ids.")
        var contacts: [String]

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                var feeds: [FeedID] = []
                for contact in contacts { feeds.append(try await account.contacts.resolve(contact).feedID) }
                return (try await account.groups.add(group.id, contacts: feeds), "Added \(feeds.count); they join when they sync your feed.")
            }
        }
    }
}
