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
    /// `kith chat create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a join code and wait for the other person.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var server: PairCommand.ServerOptions
        @OptionGroup var options: ChatOptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the join code as a QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                let (pairing, wait) = try server.validated()
                let account = options.keep ? try await openAccount(global) : nil
                let (code, device, _) = try await PairRun.offer(pairing, expiresInSeconds: server.timeout)
                try await PairRun.cleaningUp(pairing, device: device) {
                    if !noQR { Output.line(try QRCode.render(code.text)) }
                    Output.line("Join code: \(code.text)")
                    Output.line("The other person runs: kith chat join \(code.text)" + (server.server.map { " --server \($0)" } ?? ""))
                    let room = try await PairRun.step { () async throws(RelayError) in
                        try await pairing.waitForAcceptance(code, device: device, timeout: wait)
                    }
                    try await ChatRun.run(pairing: pairing, room: room, device: device, wait: wait, account: account)
                }
            }
        }
    }
}
