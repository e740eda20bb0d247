import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithSync
import KithTerminal

extension MoveCommand {
    /// `kith --home NEW move receive [--listen HOST:PORT] [--advertise HOST] [--server URL] [--expect FEED_ID] [--timeout S] [--no-qr]`.
    struct Receive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receive",
            abstract: "On the new device (an empty home): show a one-time move code, receive the identity, publish the move."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "Address and port to listen on (HOST:PORT; port 0 picks a free one). Use 0.0.0.0:PORT with --advertise for the local network.")
        var listen: String = "127.0.0.1:0"

        @Option(help: "The address the old device reaches this one at, when it differs from the listening address.")
        var advertise: String?

        @Option(name: .customLong("server"), help: "Meet the old device through this `kith serve` rendezvous server's join-code relay instead of listening (for devices that cannot reach each other).")
        var server: String?

        @Option(help: "Refuse any identity but this feed id (see `kith id` on the old device).")
        var expect: String?

        @Option(help: "Seconds to wait for the old device.")
        var timeout: Double = MoveLimits.defaultWaitSeconds

        @Flag(name: .customLong("no-qr"), help: "Do not draw the move code as a QR code.")
        var noQR = false

        func run() async throws {
            try await Output.run {
                guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
                    throw ValidationError("--listen takes HOST:PORT, for example 127.0.0.1:0")
                }
                let host = String(listen[..<colon])
                let expected: FeedID?
                do { expected = try expect.map { text throws(IdentityError) in try FeedID(text) } } catch { throw ValidationError("--expect is not a feed id") }
                // Asked before the code is shown, so the transfer never waits for typing.
                let passphrase = try PassphraseSource.obtain(prompt: "New passphrase: ", confirm: true)
                let show = { (code: MoveCode) throws in
                    let text = code.text
                    if global.json {
                        var object = JSONObject()
                        object["move_code"] = .string(text)
                        Output.json(.object(object))
                    } else {
                        if !noQR { Output.line(try QRCode.render(text)) }
                        Output.line("Move code: \(text)")
                        let needsServer = if case .relay(_, nil) = code.route { true } else { false }
                        Output.line("On the old device: kith move send \(text)" + (needsServer ? server.map { " --server \($0)" } ?? "" : ""))
                        if case .relay(_, let named?) = code.route, code.namesLoopbackServer {
                            Output.line("The code names \(named), a loopback address: if the old device is another machine, add --server URL with an address by which it reaches this server.")
                        }
                    }
                }
                let home = global.accountHome
                let receive = { @Sendable (receiver: MoveReceiver, transport: (any SyncTransport)?) async throws -> (account: Account, report: MoveReceiveReport) in
                    if let transport {
                        return try await receiver.receive(
                            over: transport, passphrase: { passphrase }, expectedFeedID: expected,
                            onConfirmation: MoveCommand.showConfirmation(on: "old"), progress: MoveCommand.progress())
                    }
                    return try await receiver.receive(
                        passphrase: { passphrase }, expectedFeedID: expected, waitSeconds: timeout,
                        onConfirmation: MoveCommand.showConfirmation(on: "old"), progress: MoveCommand.progress())
                }
                let (account, report): (Account, MoveReceiveReport)
                if let server {
                    guard timeout >= 1, timeout <= 86_400 else { throw ValidationError("--timeout must be between 1 and 86400 seconds") }
                    (account, report) = try await MoveRelayRun.receive(home: home, server: server, timeout: Int(timeout), show: show) { receiver, transport in
                        try await receive(receiver, transport)
                    }
                } else {
                    let receiver = try await MoveReceiver.listen(home: home, host: host, port: port, advertisedHost: advertise)
                    try show(receiver.code)
                    Output.error("kith: waiting for the old device (up to \(Int(timeout)) s)…")
                    (account, report) = try await receive(receiver, nil)
                }
                if global.json {
                    var object = MoveCommand.summary(feedID: account.feedID.string, confirmation: report.confirmation, streamBytes: report.streamBytes)
                    object["own_head"] = .integer(Int64(clamping: report.ownHead))
                    var rows = JSONObject()
                    for (table, count) in report.restore.importedRows.sorted(by: { $0.key < $1.key }) { rows[table] = .integer(count) }
                    object["imported"] = .object(rows)
                    object["groups_awaiting_readmission"] = .array(report.restore.groupsAwaitingReadmission.map { .string($0.groupID) })
                    Output.json(.object(object))
                } else {
                    Output.line("Received \(account.feedID) into \(global.accountHome.directory.path) (confirmation \(report.confirmation))")
                    Output.line("Published a device_migration key rotation (own feed head \(report.ownHead)); contacts learn of the move at their next sync.")
                    for group in report.restore.groupsAwaitingReadmission {
                        Output.line("  group \(TerminalText.escaped(group.name ?? group.groupID)): ask a member to re-add you (MLS state is never carried)")
                    }
                    Output.line("Check that this is your feed id (`kith id` showed it on the old device). Direct sessions restart with fresh prekeys.")
                }
            }
        }
    }
}
