import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

/// `kith feed`: export, import and verify feeds as canonical lines.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Export, import and verify feeds (one canonical envelope per line, oldest first).",
        subcommands: [Export.self, Import.self, Verify.self, Forks.self]
    )
}
