import ArgumentParser
import Crypto
import Foundation
import Kith
import KithRendezvous
import KithIdentity
import KithStore
import KithSync
import KithTerminal

extension ChatCommand {
    /// Options both subcommands share.
    struct ChatOptions: ParsableArguments {
        @Flag(help: "Chat under your identity and keep your lines as direct messages (only with a contact who also uses --keep).")
        var keep = false
    }
}
