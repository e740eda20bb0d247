import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith rotate-keys`: announces new keys.
struct RotateKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-keys",
        abstract: "Rotate your identity, dh and pq keys; your feed id stays the same.",
        discussion: """
            Announces the new keys to your contacts in a key_rotation message signed by the old key             (previous_key_sig), then signs with the new key. Contacts keys are re-derived with the fresh             dh key (the spec's 30-day contacts key rotation). Give contacts you meet a fresh card afterwards.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Why: scheduled_rotation, device_migration or key_compromise.")
    var reason: String = KeyRotationReason.scheduledRotation.rawValue

    @Flag(name: .customLong("if-due"), help: "Only rotate when the last rotation is 30 days old or more.")
    var ifDue = false

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            if ifDue, try await !account.rotation.isDue() {
                if global.json {
                    var object = JSONObject()
                    object["rotated"] = .bool(false)
                    Output.json(.object(object))
                } else {
                    Output.line("Keys are less than 30 days old; nothing to do.")
                }
                return
            }
            guard let reason = KeyRotationReason(rawValue: reason) else {
                // An unknown reason is invalid input (exit code 2), as it always was.
                throw KithError.input(.invalid("reason must be one of \(KeyRotationReason.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            try await account.rotation.rotate(reason: reason)
            if global.json {
                var object = account.publicKeysJSON.objectValue ?? JSONObject()
                object["rotated"] = .bool(true)
                Output.json(.object(object))
            } else {
                Output.line("Rotated your keys (\(reason.rawValue)). Feed id unchanged: \(account.feedID)")
                Output.line("New identity key: \(account.identity.publicKeys.identityKeyString)")
                Output.line("Your contacts learn the new keys from your feed (key_rotation, verified with your old key).")
            }
        }
    }
}
