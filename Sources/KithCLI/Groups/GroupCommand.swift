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

    /// How a command ends a persona's conversation (docs/GROUPS.md, "Personas"): the persona is deleted with it.
    enum PersonaEnding: String {
        case left, exploded
    }

    /// Opens the account holding the group (the main one or a persona's), resolves the group, runs `operation`, and
    /// prints the group after it (with `lead` first). With `ending`, a persona conversation is left or exploded through
    /// `account.personas`, which deletes the persona, instead of running `operation`.
    static func perform(
        _ global: GlobalOptions, _ target: Target, ending: PersonaEnding? = nil,
        _ operation: (Account, GroupSummary) async throws -> (after: GroupSummary, lead: String?)
    ) async throws {
        try await Output.run {
            let selected = try await selectAccount(global, holdingGroup: target.group)
            let account = selected.account
            let group = try await account.groups.resolve(target.group)
            if let ending, let persona = selected.personaID {
                switch ending {
                case .left: try await selected.main.personas.leave(persona)
                case .exploded: try await selected.main.personas.explode(persona)
                }
                if global.json {
                    var object = JSONObject()
                    object["group_id"] = .string(group.id.string)
                    object["status"] = .string(ending.rawValue)
                    object["persona_deleted"] = .bool(true)
                    Output.json(.object(object))
                } else {
                    Output.line("\(ending == .left ? "Left" : "Exploded") \(TerminalText.escaped(group.name ?? group.id.string)); its persona is deleted (keys, feed, state, files).")
                }
                return
            }
            let (after, lead) = try await operation(account, group)
            try await GroupShow.print(after, account: account, json: global.json, lead: lead)
        }
    }
}
