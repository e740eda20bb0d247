import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity

extension MoveCommand {
    /// `kith move send CODE`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "On the old device: hand this identity to the device showing CODE; after it confirms, this home stops for good."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The move code the new device shows (kithmove1.…).")
        var code: String

        func run() async throws {
            try await Output.run {
                let parsed: MoveCode
                do throws(MoveError) { parsed = try MoveCode(text: code) } catch { throw KithError.continuity(.move(error)) }
                let account = try await openMainAccount(global)
                let report = try await account.moveSend(
                    to: parsed,
                    onConfirmation: MoveCommand.showConfirmation(on: "new"),
                    progress: MoveCommand.progress())
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
