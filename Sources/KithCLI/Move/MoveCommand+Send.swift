import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity

extension MoveCommand {
    /// `kith move send CODE [--server URL] [--timeout S] [--end-personas]` (`--server` overrides the server a relay
    /// code names).
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "On the old device: hand this identity to the device showing CODE; after it confirms, this home stops for good."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The move code the new device shows (kithmove1.…).")
        var code: String

        @Option(name: .customLong("server"), help: "For a relay code: the rendezvous server to reach the new device's room through (default: the server the code names, else $KITH_SERVER, else http://127.0.0.1:7460). Give it when this device reaches that server by another address.")
        var server: String?

        @Option(help: "For a relay code: seconds to wait for the new device in the room.")
        var timeout: Int = 300

        @Flag(help: "Move even though this home holds personas: a move does not carry them, so their conversations end here.")
        var endPersonas = false

        func run() async throws {
            try await Output.run {
                let parsed: MoveCode
                do throws(MoveError) { parsed = try MoveCode(text: code) } catch { throw KithError.continuity(.move(error)) }
                let account = try await openMainAccount(global)
                let report: MoveSendReport
                switch parsed.route {
                case .direct:
                    report = try await account.moveSend(
                        to: parsed, endingPersonas: endPersonas, onConfirmation: MoveCommand.showConfirmation(on: "new"), progress: MoveCommand.progress())
                case .relay(let joinCode, let namedServer):
                    let through = server ?? namedServer
                    if !global.json, let through { Output.error("kith: joining the new device's room on \(through)…") }
                    report = try await MoveRelayRun.send(joinCode: joinCode, server: through, timeout: timeout) { transport in
                        try await account.moveSend(
                            to: parsed, over: transport, endingPersonas: endPersonas, onConfirmation: MoveCommand.showConfirmation(on: "new"), progress: MoveCommand.progress())
                    }
                }
                if global.json {
                    var object = MoveCommand.summary(feedID: account.feedID.string, confirmation: report.confirmation, streamBytes: report.streamBytes)
                    object["new_device_head"] = .integer(Int64(clamping: report.newDeviceHead))
                    object["home_retired"] = .bool(true)
                    Output.json(.object(object))
                } else {
                    Output.line("Moved \(account.feedID) to the new device (confirmation \(report.confirmation), \(report.streamBytes) bytes).")
                    Output.line("The new device published a device_migration key rotation (its head: \(report.newDeviceHead)).")
                    Output.line("This home no longer holds the keys or the database: \(global.accountHome.directory.path) keeps only public.json and moved.json.")
                }
            }
        }
    }
}
