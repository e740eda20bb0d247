import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

extension PairCommand {
    /// `kith pair join CODE [--server URL] [--timeout S]`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a contact's join code, then sync through the relay.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SyncCommand.SessionOptions
        @OptionGroup var server: ServerOptions

        @Argument(help: "The join code the other device printed.")
        var code: String

        func run() async throws {
            try await Output.run {
                let joinCode = try PairRun.joinCode(code)
                let (pairing, wait) = try server.validated()
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let (room, device) = try await PairRun.accept(joinCode, on: pairing)
                try await PairRun.cleaningUp(pairing, device: device) {
                    try await PairRun.sync(pairing: pairing, room: room, device: device, agent: agent, wait: wait, json: global.json, oneTime: server.oneTime)
                }
            }
        }
    }
}
