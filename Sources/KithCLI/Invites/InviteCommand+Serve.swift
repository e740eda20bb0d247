import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithRendezvous
import KithTerminal

extension InviteCommand {
    /// `kith invite serve URL`.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer joiners who never met you, for an invite made with --via: offer its join code on its server and run the invite exchange."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Your invite link or code (made with `kith invite create --via`).")
        var invite: String

        @Option(help: "Answer this many joiners (admitted or refused), then stop; a joiner that takes the code but does not finish the exchange does not count, and the code is offered again at once.")
        var count: Int = 1

        @Option(help: "Seconds to wait for each joiner.")
        var timeout: Int = 300

        func run() async throws {
            try await Output.run {
                guard (1...1_000).contains(count) else { throw KithError.input(.invalid("--count must be between 1 and 1000")) }
                guard (1...86_400).contains(timeout) else { throw KithError.input(.invalid("--timeout must be between 1 and 86400 seconds")) }
                let account = try await selectAccount(global, creatorOf: invite).account
                try await InviteServeRun.serve(account: account, text: invite, count: count, timeout: timeout, json: global.json)
            }
        }
    }
}
