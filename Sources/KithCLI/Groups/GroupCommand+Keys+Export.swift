import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand.Keys {
    /// `kith group keys export CONTACT`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a fresh KeyPackage for a contact to carry away in person (file, NFC, QR code)."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let text = try await account.groups.keyPackageHandover(for: try await account.contacts.resolve(contact).feedID)
                if global.json {
                    var object = JSONObject()
                    object["key_package"] = .string(text)
                    Output.json(.object(object))
                } else {
                    Output.line(text)
                }
            }
        }
    }
}
