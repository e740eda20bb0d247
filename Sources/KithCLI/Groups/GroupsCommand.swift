import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

/// `kith groups`: lists groups.
struct GroupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "groups", abstract: "List your groups.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let groups = try await account.groups.all()
            if global.json {
                Output.json(.array(groups.map(GroupShow.json)))
                return
            }
            if groups.isEmpty { Output.line("No groups yet. Try: kith group create NAME") }
            for group in groups {
                let name = TerminalText.escaped(group.name ?? "(unnamed)")
                let role = group.isCommitter ? ", you commit" : ""
                Output.line("\(name)  \(group.id.string.prefix(10))  \(group.status.rawValue), epoch \(group.epoch), \(group.members.count) members\(role)")
            }
        }
    }
}
