import ArgumentParser
import Kith
import KithCanonical
import KithIdentity
import KithStore
import KithTerminal

extension FeedCommand {
    /// `kith feed forks [--all] [--acknowledge FEED]`: the forks this home recorded, and acknowledging them.
    struct Forks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List feeds whose copies disagree (forks), or acknowledge one after checking with its owner.",
            discussion: """
                A fork is two entries at one sequence of one feed, both signed by its key: for example a backup \
                restored while the old device kept posting. The entry seen first is kept and the other kept as \
                evidence; nothing is resolved silently. Ask the owner what happened (in person or by voice), then \
                acknowledge the fork with --acknowledge (the evidence stays, marked; --all shows it).
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Also list forks already acknowledged.")
        var all = false

        @Option(help: "Acknowledge every open fork of this feed: a contact's name or a feed id (yours included).")
        var acknowledge: String?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
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
                Output.line("Check with the owner what happened, then: kith feed forks --acknowledge FEED")
            }
        }
    }
}
