import ArgumentParser
import Kith
import KithCanonical
import KithGroups
import KithTerminal

extension BackupCommand {
    /// `kith backup readmit GROUP --via CONTACT`: after a restore, asks one member again to readmit this identity
    /// (docs/CONTINUITY.md section 8).
    struct Readmit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "After a restore: ask one member (a verified contact) to readmit this identity to a group whose first member asked never answered.",
            discussion: """
                `kith backup status` lists the groups still waiting. For a group this identity was the committer of, the \
                request names that member the one allowed to readmit it; ask a second member only when the first is \
                really gone (left the group or lost its device): if both commit, the group splits.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The group: its id, or a unique prefix of a group id `kith backup status` lists as waiting.")
        var group: String

        @Option(help: "The member to ask: a contact name, feed id or feed id prefix.")
        var via: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let waiting = try await account.reestablishStatus().groupsWaiting
                let matches = waiting.filter { $0.hasPrefix(group) }
                guard matches.count == 1, let match = matches.first else {
                    throw KithError.input(.invalid(matches.isEmpty
                        ? "no group waiting for readmission matches '\(group.prefix(64))'; `kith backup status` lists them"
                        : "'\(group.prefix(64))' matches several waiting groups; use more of the id"))
                }
                let groupID: GroupID
                do throws(GroupError) { groupID = try GroupID(match) } catch { throw KithError.group(error) }
                let member = try await account.contacts.resolve(via)
                try await account.askReadmission(to: groupID, via: member.feedID)
                if global.json {
                    var object = JSONObject()
                    object["group_id"] = .string(match)
                    object["asked"] = .string(member.feedID.string)
                    Output.json(.object(object))
                } else {
                    Output.line("Asked \(TerminalText.escaped(member.localName ?? member.displayName ?? member.feedID.string)) to readmit this identity to \(match); it takes effect at the next sync with them.")
                }
            }
        }
    }
}
