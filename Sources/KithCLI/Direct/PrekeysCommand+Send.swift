import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension PrekeysCommand {
    /// `kith prekeys send CONTACT`.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a contact fresh one-time prekeys inside your direct session (a prekey_batch message)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var batch: BatchOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let envelopes = try await account.direct.sendPrekeys(to: try await account.contacts.resolve(batch.contact).feedID, count: batch.count)
                if global.json {
                    var object = JSONObject()
                    object["messages"] = .array(envelopes.map { .string($0.messageID.string) })
                    Output.json(.object(object))
                } else {
                    Output.line("Sent \(batch.count) one-time prekeys in \(envelopes.count) message\(envelopes.count == 1 ? "" : "s").")
                }
            }
        }
    }
}
