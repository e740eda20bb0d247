import ArgumentParser
import Kith
import KithCanonical
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery held [--json]`.
    struct Held: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the recovery shares you hold as a guardian (never their content).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let held = try await account.recovery.held()
                if global.json {
                    var entries: [JSONValue] = []
                    for share in held {
                        var entry = JSONObject()
                        entry["feed_id"] = .string(share.owner.string)
                        entry["name"] = .string(await account.contacts.displayName(of: share.owner))
                        entry["set_id"] = .string(share.setID)
                        entry["generation"] = .integer(share.generation)
                        entries.append(.object(entry))
                    }
                    Output.json(.array(entries))
                    return
                }
                if held.isEmpty { Output.line("You hold no recovery shares.") }
                for share in held {
                    let name = TerminalText.escaped(await account.contacts.displayName(of: share.owner))
                    Output.line("You hold a recovery share for \(name) (set \(share.setID.prefix(8)), generation \(share.generation)).")
                }
            }
        }
    }
}
