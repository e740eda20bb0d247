import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension PrekeysCommand {
    /// `kith prekeys export CONTACT`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue fresh one-time prekeys for a contact and print the signed handover (give it to them in person)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var batch: BatchOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let handover = try await account.direct.prekeyHandover(for: try await account.contacts.resolve(batch.contact).feedID, count: batch.count)
                if global.json {
                    var object = JSONObject()
                    object["handover"] = .string(handover.text)
                    object["count"] = .integer(Int64(handover.batch.entries.count))
                    Output.json(.object(object))
                } else {
                    Output.line(handover.text)
                }
            }
        }
    }
}
