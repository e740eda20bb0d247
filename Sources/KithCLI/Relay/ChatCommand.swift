import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal

/// `kith chat create|join`: a live two-person chat through a `kith serve` relay, end-to-end
/// encrypted (Noise XX), nothing stored unless both are contacts and `--keep` is given
/// (docs/SERVER.md, section 3.2).
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat live with someone through a `kith serve` relay (end-to-end encrypted, nothing stored by default).",
        discussion: "One side runs `kith chat create` and gives the join code; the other runs `kith chat join CODE`. Type lines and press Enter; end with Ctrl-D. Both screens show an 8-digit code: compare it (in person or by phone) to be sure nobody is in the middle. By default each side uses a fresh key, so the chat is anonymous and nothing is written to disk. With --keep on both sides, two contacts chat under their identities and each keeps the lines it sent as direct messages (they reach the other at the next sync). A dropped connection reconnects by itself (with backoff, up to 2 minutes) and the chat goes on with the same person; lines lost in the drop are reported as not delivered. When the chat ends, the room is deleted from the server.",
        subcommands: [Create.self, Join.self]
    )
}
