import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

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
