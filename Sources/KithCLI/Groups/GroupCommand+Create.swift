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

        @Flag(help: "Create the group under a fresh persona: an identity of its own for this conversation, never linked to yours (docs/GROUPS.md, \"Personas\").")
        var persona = false

        func run() async throws {
            try await Output.run {
                let explodeAt = try ExplosionTime.parse(at: explodeAt, in: explodeIn, now: Int64(Date().timeIntervalSince1970))
                if persona {
                    guard global.personaID == nil else { throw KithError.input(.invalid("--persona makes a fresh persona; it cannot be combined with --persona-id")) }
                    let made = try await openMainAccount(global).personas.createGroup(name: name, explodeAt: explodeAt)
                    if global.json {
                        var object = JSONObject()
                        object["group_id"] = .string(made.group.id.string)
                        object["persona_id"] = .string(made.persona.feedID.string)
                        object["persona"] = .string(made.persona.id)
                        Output.json(.object(object))
                    } else {
                        Output.line("Created group \(TerminalText.escaped(name)) (\(made.group.id)) under persona \(made.persona.id) (feed \(made.persona.feedID))")
                        Output.line("Invite strangers: kith invite create \(TerminalText.escaped(name)) --via SERVER_URL (it names the persona, not you)")
                    }
                    return
                }
                let account = try await openAccount(global)
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
