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
    /// `kith chat join CODE`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join someone's chat by its join code.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var server: PairCommand.ServerOptions
        @OptionGroup var options: ChatOptions

        @Argument(help: "The join code the other person gave.")
        var code: String

        func run() async throws {
            try await Output.run {
                let joinCode = try PairRun.joinCode(code)
                let (pairing, wait) = try server.validated()
                let account = options.keep ? try await openAccount(global) : nil
                let (room, device) = try await PairRun.accept(joinCode, on: pairing)
                try await PairRun.cleaningUp(pairing, device: device) {
                    try await ChatRun.run(pairing: pairing, room: room, device: device, wait: wait, account: account)
                }
            }
        }
    }
}
