import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

/// `kith pair create|join`: pair with a contact by join code on a rendezvous server and sync
/// through its blind relay (docs/SERVER.md, section 3.1).
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Sync with a contact on another network: pair by join code through a `kith serve` relay.",
        discussion: "One side runs `kith pair create` and reads out (or shows as a QR code) the join code; the other runs `kith pair join CODE`. Both then sync through the server's relay over the same Noise-encrypted link as `kith sync`: the server sees only ciphertext, and only contacts are accepted. A dropped connection reconnects by itself (with backoff, up to 2 minutes) and the sync starts over; when the command ends, the room is deleted from the server.",
        subcommands: [Create.self, Join.self]
    )
}
