import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

extension PairCommand {
    /// `kith pair create [--server URL] [--timeout S] [--no-qr]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a join code (printed with its QR code), wait for the contact to join, then sync."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SyncCommand.SessionOptions
        @OptionGroup var server: ServerOptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the join code as a QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                let (pairing, wait) = try server.validated()
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let (code, device, expires) = try await PairRun.offer(pairing, expiresInSeconds: server.timeout)
                try await PairRun.cleaningUp(pairing, device: device) {
                    if global.json {
                        var object = JSONObject()
                        object["join_code"] = .string(code.text)
                        object["expires"] = .string(expires.expiresAt.iso8601)
                        Output.json(.object(object))
                    } else {
                        if !noQR { Output.line(try QRCode.render(code.text)) }
                        Output.line("Join code: \(code.text)")
                        Output.line("On the other device: kith pair join \(code.text)" + (server.server.map { " --server \($0)" } ?? ""))
                    }
                    Output.error("kith: waiting for the other device (up to \(server.timeout) s)…")
                    let room = try await PairRun.step { () async throws(RelayError) in
                        try await pairing.waitForAcceptance(code, device: device, timeout: wait)
                    }
                    try await PairRun.sync(pairing: pairing, room: room, device: device, agent: agent, wait: wait, json: global.json, oneTime: server.oneTime)
                }
            }
        }
    }
}
