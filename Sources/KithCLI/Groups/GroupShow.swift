import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

/// Shared rendering of groups.
enum GroupShow {
    static func json(_ group: GroupSummary) -> JSONValue {
        var object = JSONObject()
        object["group_id"] = .string(group.id.string)
        object["name"] = group.name.map { .string($0) } ?? .null
        object["epoch"] = .integer(Int64(clamping: group.epoch))
        object["status"] = .string(group.status.rawValue)
        object["members"] = .array(group.members.map { .string($0.string) })
        object["committer"] = group.committer.map { .string($0.string) } ?? .null
        object["explode_at"] = group.explodeAt.map { .integer($0) } ?? .null
        object["is_committer"] = .bool(group.isCommitter)
        if let metadata = group.metadata {
            object["invite_tag"] = .string(metadata.tag)
            object["profiles"] = .array(metadata.profiles.map { profile in
                var entry = JSONObject()
                entry["feed_id"] = .string(profile.feedID.string)
                entry["name"] = profile.name.map { .string($0) } ?? .null
                return .object(entry)
            })
        }
        return .object(object)
    }

    static func print(_ group: GroupSummary, account: Account, json: Bool, lead: String? = nil) async throws {
        if json {
            Output.json(Self.json(group))
            return
        }
        if let lead { Output.line(lead) }
        Output.line("Group \(TerminalText.escaped(group.name ?? "(unnamed)")) \(group.id)")
        Output.line("  status \(group.status.rawValue), epoch \(group.epoch)")
        if let committer = group.committer {
            Output.line("  committer \(TerminalText.escaped(await account.contacts.displayName(of: committer)))\(group.isCommitter ? " (you)" : "")")
        }
        if let explodeAt = group.explodeAt {
            Output.line("  explodes at \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(explodeAt))))")
        }
        Output.line("  \(group.members.count) member\(group.members.count == 1 ? "" : "s"):")
        for member in group.members {
            let me = member == account.feedID ? " (you)" : ""
            var shown = await account.contacts.displayName(of: member)
            if let chosen = group.profileName(of: member) { shown = chosen }
            Output.line("    \(TerminalText.escaped(shown))\(me)  \(member)")
        }
        if let tag = group.metadata?.tag, !tag.isEmpty { Output.line("  invite tag \(TerminalText.escaped(tag))") }
    }

    /// A member named by contact name, feed id or unique feed id prefix.
    static func resolveMember(_ text: String, in group: GroupSummary, account: Account) async throws -> FeedID {
        if let contact = try? await account.contacts.resolve(text), group.members.contains(contact.feedID) { return contact.feedID }
        let matches = group.members.filter { $0.string == text || (text.count >= 4 && $0.string.hasPrefix(text)) }
        guard matches.count == 1, let match = matches.first else {
            throw KithError.group(.unknownMemberName(text))
        }
        return match
    }
}
