import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// `kith group create NAME`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group; you are its only member and its committer.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The group's name (shown to you only).")
        var name: String

        @Option(help: "Explode the conversation at this time: Unix seconds or ISO 8601 (2026-12-31T20:00:00Z).")
        var explodeAt: String?

        @Option(help: "Explode the conversation after this long: 90s, 30m, 12h, 7d.")
        var explodeIn: String?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let explodeAt = try ExplosionTime.parse(at: explodeAt, in: explodeIn, now: Int64(Date().timeIntervalSince1970))
                let group = try await account.groups.create(name: name, explodeAt: explodeAt)
                if global.json {
                    var object = JSONObject()
                    object["group_id"] = .string(group.id.string)
                    Output.json(.object(object))
                } else {
                    Output.line("Created group \(TerminalText.escaped(name)) (\(group.id))")
                    Output.line("Add contacts who handed you a KeyPackage: kith group add \(TerminalText.escaped(name)) CONTACT...")
                }
            }
        }
    }
}
