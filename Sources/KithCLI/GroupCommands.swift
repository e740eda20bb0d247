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
            receives them. To be added, a contact first hands you a KeyPackage: on their device, \
            `kith group keys share YOUR_NAME`, then sync.
            """,
        subcommands: [Create.self, Add.self, Remove.self, Update.self, Leave.self, Send.self, Show.self, Handover.self, Explode.self, Keys.self]
    )

    /// Names the group an operation is about.
    struct Target: ParsableArguments {
        @Argument(help: "The group: its name, id, or an id prefix (4+ characters).")
        var group: String
    }

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

    /// `kith group remove GROUP MEMBER`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a member (committer only); they read nothing sent afterwards.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "The member: a contact name, a feed id, or a feed id prefix of a member.")
        var member: String

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                let feed = try await GroupShow.resolveMember(member, in: group, account: account)
                return (try await account.groups.remove(group.id, member: feed), "Removed.")
            }
        }
    }

    /// `kith group update GROUP`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh your keys in the group (a commit if you are the committer, else a proposal the committer applies)."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                let after = try await account.groups.updateKeys(group.id)
                return (after, after.isCommitter ? "Keys updated (epoch \(after.epoch))." : "Key update proposed; the committer applies it when it syncs your feed.")
            }
        }
    }

    /// `kith group leave GROUP`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask to leave the group (the committer commits your departure).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                (try await account.groups.leave(group.id), "Departure proposed; you are out once the committer applies it.")
            }
        }
    }

    /// `kith group send GROUP TEXT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send text to the group (an MLS PrivateMessage in your feed).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        @Argument(help: "The text (at most 2,000 characters).")
        var text: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let group = try await account.groups.resolve(target.group)
                let envelope = try await account.groups.send(group.id, text: text)
                if global.json {
                    var object = JSONObject()
                    object["message_id"] = .string(envelope.messageID.string)
                    object["sequence"] = .integer(Int64(envelope.sequence))
                    object["group_id"] = .string(group.id.string)
                    object["epoch"] = .integer(Int64(clamping: group.epoch))
                    Output.json(.object(object))
                } else {
                    Output.line("Sent #\(envelope.sequence) to \(TerminalText.escaped(group.name ?? group.id.string)) (message \(envelope.messageID))")
                }
            }
        }
    }

    /// `kith group show GROUP`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a group: members, epoch, committer, explosion time.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { _, group in (group, nil) }
        }
    }

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

    /// `kith group explode GROUP`.
    struct Explode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Explode the conversation now (committer only): members are removed and every copy is deleted."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await GroupCommand.perform(global, target) { account, group in
                (try await account.groups.explode(group.id), "Exploded: state, keys and messages deleted here; members follow when they sync.")
            }
        }
    }

    /// `kith group keys share CONTACT`.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "KeyPackages: hand a contact one (over your session or in person), so they can add you to groups.",
            subcommands: [Share.self, Export.self, Import.self]
        )

        /// `kith group keys export CONTACT`.
        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a fresh KeyPackage for a contact to carry away in person (file, NFC, QR code)."
            )

            @OptionGroup var global: GlobalOptions

            @Argument(help: "The contact: a name or a feed id.")
            var contact: String

            func run() async throws {
                try await Output.run {
                    let account = try await openAccount(global)
                    let text = try await account.groups.keyPackageHandover(for: try await account.contacts.resolve(contact).feedID)
                    if global.json {
                        var object = JSONObject()
                        object["key_package"] = .string(text)
                        Output.json(.object(object))
                    } else {
                        Output.line(text)
                    }
                }
            }
        }

        /// `kith group keys import CONTACT FILE`.
        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Import a KeyPackage a contact handed you in person.")

            @OptionGroup var global: GlobalOptions

            @Argument(help: "The contact who handed it over: a name or a feed id.")
            var contact: String

            @Argument(help: "A file holding the KeyPackage text (- for standard input).")
            var file: String

            func run() async throws {
                try await Output.run {
                    let account = try await openAccount(global)
                    let record = try await account.contacts.resolve(contact)
                    let text = String(decoding: try Output.readLines(file, maxBytes: 8192).joined(), as: UTF8.self)
                    try await account.groups.importKeyPackage(text, from: record.feedID)
                    let held = try await account.groups.keyPackageCount(of: record.feedID)
                    if global.json {
                        var object = JSONObject()
                        object["feed_id"] = .string(record.feedID.string)
                        object["held"] = .integer(Int64(held))
                        Output.json(.object(object))
                    } else {
                        Output.line("Imported a KeyPackage of \(TerminalText.escaped(record.shownName)); you hold \(held). Add them: kith group add GROUP \(TerminalText.escaped(record.shownName))")
                    }
                }
            }
        }

        /// `kith group keys share CONTACT...`.
        struct Share: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Send contacts a fresh KeyPackage over your direct session.")

            @OptionGroup var global: GlobalOptions

            @Argument(help: "Contacts: names or feed ids.")
            var contacts: [String]

            func run() async throws {
                try await Output.run {
                    let account = try await openAccount(global)
                    var rows: [JSONValue] = []
                    for contact in contacts {
                        let record = try await account.contacts.resolve(contact)
                        let envelope = try await account.groups.shareKeyPackage(with: record.feedID)
                        var object = JSONObject()
                        object["feed_id"] = .string(record.feedID.string)
                        object["message_id"] = .string(envelope.messageID.string)
                        rows.append(.object(object))
                        if !global.json {
                            Output.line("Sent \(TerminalText.escaped(record.shownName)) a KeyPackage (#\(envelope.sequence)); they can add you after a sync.")
                        }
                    }
                    if global.json { Output.json(.array(rows)) }
                }
            }
        }
    }
}

/// `kith groups`: lists groups.
struct Groups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your groups.")

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

/// `kith log --group GROUP`.
enum GroupLog {
    static func print(_ text: String, account: Account, limit: Int, json: Bool) async throws {
        let group = try await account.groups.resolve(text)
        let messages = try await account.groups.messages(group.id, limit: limit)
        if json {
            Output.json(.array(messages.map(MessageRendering.json)))
            return
        }
        let name = TerminalText.escaped(group.name ?? group.id.string)
        if messages.isEmpty { Output.line("No messages in \(name) yet. Try: kith group send \(name) \"hello\"") }
        for message in messages where !message.tombstoned {
            Output.line(MessageRendering.line(message, localFeed: account.feedID, author: await account.contacts.displayName(of: message.feedID)))
        }
    }
}

/// Parses `--explode-at` / `--explode-in`.
enum ExplosionTime {
    static func parse(at: String?, in duration: String?, now: Int64) throws -> Int64? {
        switch (at, duration) {
        case (nil, nil): return nil
        case (.some, .some): throw KithError.input(.invalid("use --explode-at or --explode-in, not both"))
        case (let at?, nil):
            if let seconds = Int64(at) { return seconds }
            guard let date = ISO8601DateFormatter().date(from: at) else {
                throw KithError.input(.invalid("--explode-at takes Unix seconds or ISO 8601 like 2026-12-31T20:00:00Z"))
            }
            return Int64(date.timeIntervalSince1970)
        case (nil, let duration?):
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            guard let unit = duration.last, let factor = units[unit], let count = Int64(duration.dropLast()), count > 0, count <= 3650 * 86_400 / factor else {
                throw KithError.input(.invalid("--explode-in takes a positive duration like 90s, 30m, 12h or 7d (up to 10 years)"))
            }
            return now + count * factor
        }
    }
}
