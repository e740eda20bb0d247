import ArgumentParser
import Kith
import KithCanonical

extension RecoveryCommand {
    /// `kith recovery revoke [--json]`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell every guardian of the current set to delete your share (no new set is made).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let set = try await account.recovery.revoke()
                if global.json {
                    Output.json(.object(RecoveryRendering.set(set)))
                    return
                }
                await RecoveryRendering.printGuardians(
                    of: set, heading: "Revoked recovery set \(set.setID.prefix(8)) (generation \(set.generation)); revocations wait for:",
                    account: account)
                Output.line("Sync with them to deliver it. Until you run `kith recovery setup` again, guardians cannot help you recover.")
            }
        }
    }
}
