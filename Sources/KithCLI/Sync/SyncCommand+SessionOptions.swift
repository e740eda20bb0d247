import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithIdentity
import KithNearby
import KithStore
import KithSync
import KithTerminal
import Synchronization

extension SyncCommand {
    /// Options shared by the sync subcommands.
    struct SessionOptions: ParsableArguments {
        @Flag(name: .customLong("no-blobs"), help: "Skip the blob phase (attachments and avatars stay behind).")
        var noBlobs = false

        @Option(name: .customLong("max-blob-bytes"), help: "Largest blob to ask for or serve, in bytes.")
        var maximumBlobBytes: Int = SyncLimits.defaultMaximumBlobLength
    }
}
