import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithRendezvous
import KithTerminal

extension InviteCommand {
    /// `kith invite revoke GROUP`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Void every outstanding invite to a group (rotates its invite tag; committer only).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: GroupCommand.Target

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let group = try await account.groups.resolve(target.group)
                let after = try await account.invites.revoke(group: group.id)
                let tag = after.metadata?.tag ?? ""
                if global.json {
                    var object = JSONObject()
                    object["group_id"] = .string(after.id.string)
                    object["tag"] = .string(tag)
                    Output.json(.object(object))
                } else {
                    Output.line("Revoked every outstanding invite to \(TerminalText.escaped(after.name ?? after.id.string)); new tag \(tag).")
                }
            }
        }
    }
}
