import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith log`: shows messages, newest first.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "Show messages you can read, newest first.")

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .unconditional, help: "Only this feed.")
    var feed: String?

    @Option(name: .customLong("with"), help: "Only the direct conversation with this contact (name or feed id), oldest first.")
    var with: String?

    @Option(help: "Only the conversation of this group (name, id or id prefix), oldest first.")
    var group: String?

    @Option(help: "How many messages at most.")
    var limit: Int = 50

    func run() async throws {
        try await Output.run {
            let account = if let group { try await selectAccount(global, holdingGroup: group).account } else { try await openAccount(global) }
            if let group {
                guard feed == nil, with == nil else { throw KithError.input(.invalid("--group cannot be combined with --feed or --with")) }
                try await GroupLog.print(group, account: account, limit: max(1, min(limit, 10_000)), json: global.json)
                return
            }
            let feedID = try feed.map { text throws -> FeedID in
                do throws(IdentityError) { return try FeedID(text) } catch { throw KithError.identity(error) }
            }
            let bounded = max(1, min(limit, 10_000))
            if let with {
                guard feed == nil else { throw KithError.input(.invalid("--with and --feed cannot be combined")) }
                let contact = try await account.contacts.resolve(with)
                let conversation = try await account.direct.conversation(with: contact.feedID, limit: bounded)
                if global.json {
                    Output.json(.array(conversation.map(MessageRendering.json)))
                    return
                }
                let name = contact.shownName
                if conversation.isEmpty { Output.line("No direct messages with \(TerminalText.escaped(name)) yet. Try: kith dm \(TerminalText.escaped(name)) \"hello\"") }
                for message in conversation where !message.tombstoned {
                    Output.line(MessageRendering.line(message, localFeed: account.feedID, author: await account.contacts.displayName(of: message.feedID)))
                }
                return
            }
            let messages = try await account.feed.timeline(feed: feedID, limit: bounded)
            if global.json {
                Output.json(.array(messages.map(MessageRendering.json)))
                return
            }
            if messages.isEmpty { Output.line("No messages yet. Try: kith post --audience self \"hello\"") }
            var reactions: [MessageID: [String]] = [:]
            for message in messages where !message.tombstoned {
                if case .reaction(let reaction)? = message.content {
                    reactions[reaction.targetMessage, default: []].append("\(TerminalText.escaped(reaction.emoji)) \(TerminalText.escaped(await account.contacts.displayName(of: message.feedID)))")
                }
            }
            for message in messages where !message.tombstoned {
                if case .reaction? = message.content { continue }
                Output.line(MessageRendering.line(message, localFeed: account.feedID, author: await account.contacts.displayName(of: message.feedID)))
                if let list = reactions[message.messageID] { Output.line("    reactions: " + list.joined(separator: ", ")) }
            }
        }
    }
}
