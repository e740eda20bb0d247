import ArgumentParser
import Kith
import KithCanonical
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show this identity's current guardian set.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let set = try await account.recovery.status()
                var stale = false
                if let set { stale = try await account.recovery.isStale(set) }
                if global.json {
                    var object = set.map(RecoveryRendering.set) ?? JSONObject()
                    object["configured"] = .bool(set != nil)
                    if set != nil { object["stale"] = .bool(stale) }
                    Output.json(.object(object))
                    return
                }
                guard let set else {
                    Output.line("No guardians yet: run `kith recovery setup --threshold K CONTACT...`.")
                    return
                }
                Output.line("Recovery set \(set.setID) (generation \(set.generation)): any \(set.threshold) of \(set.guardians.count) guardians"
                    + (set.carriesBackupKey ? ", carrying the backup key." : "."))
                if set.revokedAt != nil {
                    Output.line("REVOKED: the guardians were told to delete their shares; run `kith recovery setup` to make a new set.")
                } else if stale {
                    Output.line("STALE: your keys rotated since this set was made; run `kith recovery setup` again.")
                }
                for (offset, guardian) in set.guardians.enumerated() {
                    Output.line("  share \(offset + 1): \(TerminalText.escaped(await account.contacts.displayName(of: guardian)))")
                }
            }
        }
    }
}
