import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity
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

        @Option(name: .customLong("backup-key-file"),
                help: "A backup recovery key file (as `kith backup schedule --key-file` makes) to carry in the recovery secret.")
        var backupKeyFile: String?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                var guardians: [FeedID] = []
                for contact in contacts { guardians.append(try await account.contacts.resolve(contact).feedID) }
                var backupKey: RecoveryKey?
                if let backupKeyFile {
                    guard let data = FileManager.default.contents(atPath: backupKeyFile) else {
                        throw KithError.input(.file(path: backupKeyFile, reason: "cannot be read"))
                    }
                    do throws(BackupError) { backupKey = try RecoveryKey(text: String(decoding: data, as: UTF8.self)) } catch {
                        throw KithError.continuity(.backup(error))
                    }
                }
                let previous = try await account.recovery.status()
                let set = try await account.recovery.setup(threshold: threshold, guardians: guardians, backupKey: backupKey)
                let replaced = previous.map { $0.revokedAt == nil ? $0.guardians.filter { !guardians.contains($0) } : [] } ?? []
                if global.json {
                    Output.json(.object(RecoveryRendering.set(set)))
                    return
                }
                await RecoveryRendering.printGuardians(
                    of: set, heading: "Recovery set \(set.setID.prefix(8)) (generation \(set.generation)): \(set.threshold) of \(set.guardians.count) guardians.",
                    account: account)
                if set.carriesBackupKey { Output.line("The recovery secret carries your backup key: after recovery, the latest backup opens.") }
                Output.line("Each share waits in your direct channel with its guardian: sync with them to hand it over.")
                for guardian in replaced {
                    Output.line("  \(TerminalText.escaped(await account.contacts.displayName(of: guardian))) (replaced) was sent a revocation: sync to deliver it.")
                }
            }
        }
    }
}
