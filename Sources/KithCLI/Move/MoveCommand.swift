import ArgumentParser
import Foundation
import Kith
import KithCanonical

/// `kith move …`: moving the identity to a new device in person (docs/CONTINUITY.md, section 7).
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move this identity to a new device over a direct link: receive on the new device, send from the old one.",
        subcommands: [Receive.self, Send.self]
    )

    /// A progress callback drawing the stage and a percentage on standard error when it is a terminal.
    static func progress() -> MoveProgress? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { stage, done, total in
            let percent = total == 0 ? 0 : min(100, done * 100 / total)
            FileHandle.standardError.write(Data("\r\(stage.rawValue): \(percent)% (\(done)/\(total))\(percent == 100 ? "\n" : "")".utf8))
        }
    }

    /// Prints the confirmation number to compare with `other` device's screen.
    static func showConfirmation(on other: String) -> @Sendable (String) -> Void {
        { digits in Output.error("kith: connected; confirmation \(digits) (the \(other) device shows the same number)") }
    }

    /// The JSON fields both sides print after a move.
    static func summary(feedID: String, confirmation: String, streamBytes: UInt64) -> JSONObject {
        var object = JSONObject()
        object["feed_id"] = .string(feedID)
        object["confirmation"] = .string(confirmation)
        object["stream_bytes"] = .integer(Int64(clamping: streamBytes))
        return object
    }
}
