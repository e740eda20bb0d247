import ArgumentParser
import Kith
import KithCanonical
import KithIdentity
import KithStore
import KithTerminal

extension FeedCommand {
    /// `kith feed forks [--all] [--acknowledge FEED] [--switch FEED [--to MESSAGE_ID]]`: the forks this home recorded,
    /// acknowledging them, and switching a contact's feed to the other branch.
    struct Forks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List feeds whose copies disagree (forks); acknowledge one, or switch a contact's feed to the other branch.",
            discussion: """
                A fork is two entries at one sequence of one feed, both signed by its key: for example a backup \
                restored while the old device kept posting. The entry seen first is kept and the other kept as \
                evidence; nothing is resolved silently. Ask the owner what happened (in person or by voice), then \
                acknowledge the fork with --acknowledge (the evidence stays, marked; --all shows it). When the owner \
                tells you the other entry is theirs (for example: their phone was stolen and the thief kept posting \
                while they rotated their keys from a backup), --switch FEED makes your copy follow the other branch: \
                the held entries from the fork on are removed and kept as evidence (you can switch back), what they \
                did is undone (key rotations, keys, profile, introductions), and the next sync fetches the rest of \
                the new branch. --to names the entry to adopt when there are several. A switch that would drop a \
                direct, one-time or group message to you, or a retraction of an older message, is refused.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Also list forks already acknowledged.")
        var all = false

        @Option(help: "Acknowledge every open fork of this feed: a contact's name or a feed id (yours included).")
        var acknowledge: String?

        @Option(
            name: .customLong("switch"),
            help: ArgumentHelp("Switch your copy of this contact's feed (a name or a feed id) to the other branch of its fork.", valueName: "feed"))
        var switchFeed: String?

        @Option(help: ArgumentHelp("With --switch: the message id of the recorded entry to adopt (default: the only one).", valueName: "message-id"))
        var to: String?

        @Flag(help: "With --switch: drop direct messages to you that are on the dropped branch and start the direct channel with the contact afresh (otherwise such a switch is refused).")
        var resetDirect = false

        func validate() throws {
            if to != nil && switchFeed == nil { throw ValidationError("--to goes with --switch FEED") }
            if resetDirect && switchFeed == nil { throw ValidationError("--reset-direct goes with --switch FEED") }
            if switchFeed != nil && acknowledge != nil { throw ValidationError("use --switch or --acknowledge, not both") }
        }

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                if let switchFeed {
                    let feed: FeedID
                    if let id = try? FeedID(switchFeed) { feed = id } else { feed = try await account.contacts.resolve(switchFeed).feedID }
                    let report = try await account.feed.switchFork(of: feed, to: to, resettingDirectChannel: resetDirect)
                    if global.json {
                        var object = JSONObject()
                        object["feed_id"] = .string(feed.string)
                        object["sequence"] = .integer(Int64(report.sequence))
                        object["adopted"] = .array(report.adoptedMessageIDs.map { .string($0) })
                        object["dropped"] = .array(report.droppedMessageIDs.map { .string($0) })
                        object["head_sequence"] = report.headSequence.map { .integer(Int64($0)) } ?? .null
                        object["keys_changed"] = .bool(report.keysChanged)
                        Output.json(.object(object))
                    } else {
                        Output.line("Switched \(feed.string) at #\(report.sequence): adopted \(report.adoptedMessageIDs.count), dropped \(report.droppedMessageIDs.count) (kept as evidence: kith feed forks --all).")
                        if report.keysChanged { Output.line("Their keys changed with the switch.") }
                    }
                    return
                }
                if let acknowledge {
                    let feed: FeedID
                    if let id = try? FeedID(acknowledge) { feed = id } else { feed = try await account.contacts.resolve(acknowledge).feedID }
                    let count = try await account.feed.acknowledgeForks(of: feed)
                    if global.json {
                        var object = JSONObject()
                        object["feed_id"] = .string(feed.string)
                        object["acknowledged"] = .integer(Int64(count))
                        Output.json(.object(object))
                    } else {
                        Output.line(count == 0 ? "No open fork of \(feed.string)." : "Acknowledged \(count) fork(s) of \(feed.string); the evidence stays (kith feed forks --all).")
                    }
                    return
                }
                let forks = try await account.feed.forks(includeAcknowledged: all)
                let names = Dictionary(try await account.contacts.all().map { ($0.feedID, $0.shownName) }, uniquingKeysWith: { first, _ in first })
                func name(_ feed: FeedID) -> String {
                    feed == account.feedID ? "your own feed" : names[feed].map { TerminalText.escaped($0) } ?? feed.string
                }
                if global.json {
                    Output.json(.array(forks.map { fork in
                        var object = JSONObject()
                        object["feed_id"] = .string(fork.feedID.string)
                        object["sequence"] = .integer(Int64(fork.sequence))
                        object["kept_message_id"] = .string(fork.keptMessageID)
                        object["conflicting_message_id"] = .string(fork.conflictingMessageID)
                        object["reason"] = .string(TerminalText.escaped(fork.reason))
                        object["detected_at"] = .integer(fork.detectedAt)
                        object["acknowledged_at"] = fork.acknowledgedAt.map { .integer($0) } ?? .null
                        return .object(object)
                    }))
                    return
                }
                if forks.isEmpty {
                    Output.line(all ? "No fork recorded." : "No open fork.")
                    return
                }
                for fork in forks {
                    var line = "\(name(fork.feedID)) forked at #\(fork.sequence) (\(TerminalText.escaped(fork.reason))): kept \(fork.keptMessageID), other \(fork.conflictingMessageID)"
                    if let at = fork.acknowledgedAt { line += " [acknowledged at \(at)]" }
                    Output.line(line)
                }
                Output.line("Check with the owner what happened, then: kith feed forks --acknowledge FEED, or --switch FEED [--to MESSAGE_ID]")
            }
        }
    }
}
