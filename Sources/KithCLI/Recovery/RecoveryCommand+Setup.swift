import ArgumentParser
import Kith
import KithCanonical
import KithIdentity
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery setup --threshold K CONTACT...`.
    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Split the recovery secret among guardian contacts (replaces any earlier set).")

        @OptionGroup var global: GlobalOptions

        @Option(help: "How many guardians must release their shares (2...16).")
        var threshold: Int

        @Argument(help: "The guardians' feed ids or names (threshold...16 contacts).")
        var contacts: [String]

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                var guardians: [FeedID] = []
                for contact in contacts { guardians.append(try await account.contacts.resolve(contact).feedID) }
                let set = try await account.recovery.setup(threshold: threshold, guardians: guardians)
                if global.json {
                    Output.json(.object(RecoveryRendering.set(set)))
                    return
                }
                Output.line("Recovery set \(set.setID.prefix(8)) (generation \(set.generation)): \(set.threshold) of \(set.guardians.count) guardians.")
                for guardian in set.guardians {
                    Output.line("  \(TerminalText.escaped(await account.contacts.displayName(of: guardian)))")
                }
                Output.line("Each share waits in your direct channel with its guardian: sync with them to hand it over.")
            }
        }
    }
}
