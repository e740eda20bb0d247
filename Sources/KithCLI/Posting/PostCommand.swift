import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith post`: appends a post to the feed.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "post", abstract: "Post text to your feed.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Who can read it: self, contacts, or direct:FEED_ID (one contact; same as `kith dm`). group:ID arrives with MLS groups.")
    var audience: String = "self"

    @Option(name: .customLong("attach"), parsing: .upToNextOption, help: "Files to attach (at most 4), encrypted before they are stored.")
    var attachments: [String] = []

    @Argument(help: "The text (at most 2,000 characters).")
    var text: String

    func run() async throws {
        try await Output.run {
            let parsed: Audience
            do throws(FeedError) { parsed = try Audience(audience) } catch { throw KithError.feed(error) }
            let files = try attachments.map { try Output.readFile($0) }
            let account = try await openAccount(global)
            let envelope = try await account.publishing.post(text, audience: parsed, attachments: files)
            if global.json {
                var object = JSONObject()
                object["message_id"] = .string(envelope.messageID.string)
                object["sequence"] = .integer(Int64(envelope.sequence))
                object["audience"] = .string(envelope.audience.description)
                Output.json(.object(object))
            } else {
                Output.line("Posted #\(envelope.sequence) to \(envelope.audience) (message \(envelope.messageID))")
            }
        }
    }
}
