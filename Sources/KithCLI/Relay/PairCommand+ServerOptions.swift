import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

extension PairCommand {
    /// The server and the waits, shared by both subcommands.
    struct ServerOptions: ParsableArguments {
        @Option(name: .customLong("server"), help: "The rendezvous server (default: $KITH_SERVER, else http://127.0.0.1:7460).")
        var server: String?

        @Option(help: "Seconds to wait for the other device (pairing and joining).")
        var timeout: Int = 300

        @Option(name: .customLong("one-time"), help: "Also send TEXT over the relay as a one-time message (inner-circle contacts only): opened once, never stored.")
        var oneTime: String?

        /// The server URL: the flag, else `KITH_SERVER`, else the default of `kith serve`.
        var url: String { PairRun.serverURL(server) }

        func validated() throws -> (RelayPairing, Duration) { try PairRun.pairing(server: server, timeout: timeout) }
    }
}
