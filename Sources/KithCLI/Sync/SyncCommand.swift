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

/// `kith sync`: device-to-device sync with contacts over TCP (docs/sync.md).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync feeds with a contact over TCP (Noise-encrypted, contacts only).",
        subcommands: [Listen.self, Connect.self, Nearby.self]
    )
}
