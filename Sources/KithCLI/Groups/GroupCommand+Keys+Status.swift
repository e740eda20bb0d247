import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTerminal

extension GroupCommand.Keys {
    /// `kith group keys [status]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, per contact, whether an automatic KeyPackage offer waits unused and how many of theirs you hold."
        )

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let automatic = try await account.groups.automaticKeyOffers()
                let rows = try await account.groups.keyOfferStatus()
                if global.json {
                    var object = JSONObject()
                    object["automatic_offers"] = .bool(automatic)
                    object["contacts"] = .array(rows.map { row in
                        var entry = JSONObject()
                        entry["feed_id"] = .string(row.contact.string)
                        entry["name"] = .string(row.name)
                        entry["automatic_offer_outstanding"] = .bool(row.automaticOfferOutstanding)
                        entry["shared_outstanding"] = .integer(Int64(row.sharedOutstanding))
                        entry["held"] = .integer(Int64(row.held))
                        return .object(entry)
                    })
                    Output.json(.object(object))
                    return
                }
                Output.line("Automatic KeyPackage offers: \(automatic ? "on" : "off")")
                if rows.isEmpty { Output.line("No contacts.") }
                for row in rows {
                    let offer = row.automaticOfferOutstanding ? "offered" : "not offered"
                    Output.line("\(TerminalText.escaped(row.name)): automatic offer \(offer), \(row.sharedOutstanding) shared waiting, \(row.held) of theirs held")
                }
            }
        }
    }
}
