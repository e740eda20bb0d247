import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

extension FeedCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a feed, one canonical envelope per line, oldest first.")

        @OptionGroup var global: GlobalOptions

        @Option(parsing: .unconditional, help: "The feed to export (default: your own).")
        var feed: String?

        @Flag(help: "Include the content of your own self messages (a private backup; never share it).")
        var includeSelf = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let feedID = try feed.map { text throws -> FeedID in
                    do throws(IdentityError) { return try FeedID(text) } catch { throw KithError.identity(error) }
                }
                let lines = try await account.feed.export(feedID, includeSelfContent: includeSelf)
                var out = Data()
                for line in lines { out.append(contentsOf: line); out.append(0x0A) }
                FileHandle.standardOutput.write(out)
            }
        }
    }
}
