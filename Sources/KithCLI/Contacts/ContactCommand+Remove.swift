import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension ContactCommand {
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a contact: later contacts posts are not encrypted for them.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact's feed id or name.")
        var contact: String

        @Flag(name: .customLong("keep-keys"), help: "Do not rotate your keys after the removal (the spec rotates them).")
        var keepKeys = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.remove(try await account.contacts.resolve(contact).feedID)
                // Spec 4.3: rotate the contacts key after a removal (fresh dh key, key_rotation).
                if !keepKeys { try await account.rotation.rotate(reason: .scheduledRotation) }
                // Push: the removal queued their whitelist tokens for revocation; DELETE them at the gateway now.
                let push = await PushFlows.flushRevocations(account)
                if global.json {
                    var object = ContactRendering.json(record).objectValue ?? JSONObject()
                    object["keys_rotated"] = .bool(!keepKeys)
                    object["push_tokens_revoked"] = .integer(Int64(push.revoked))
                    object["push_tokens_pending_revocation"] = .integer(Int64(push.pending))
                    Output.json(.object(object))
                } else {
                    Output.line("Removed \(TerminalText.escaped(record.shownName)) (\(record.feedID)). Posts written from now on are not readable by them.")
                    if !keepKeys { Output.line("Your keys were rotated as well (fresh dh key; announced to your remaining contacts).") }
                    if push.revoked > 0 { Output.line("Revoked \(push.revoked) push tokens you had given them: they can no longer knock.") }
                    if push.pending > 0 { Output.line("\(push.pending) push tokens could not be revoked yet (gateway unreachable); `kith push refill` retries.") }
                }
            }
        }
    }
}
