import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTerminal

extension BackupCommand {
    /// `kith backup verify FILE`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check every chunk and record of a backup without restoring it; prints its manifest."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var backup: BackupFileOptions

        func run() async throws {
            try await Output.run {
                let secret = try BackupSecretSource.forOpening(keyFile: backup.keyFile)
                let manifest = try await Account.verifyBackup(at: URL(fileURLWithPath: backup.file), secret: secret,
                                                              progress: BackupSecretSource.progress("verify"))
                if global.json {
                    Output.json((try? CanonicalJSON.parse(manifest.encoded)) ?? .null)
                } else {
                    Output.line("Backup \(TerminalText.escaped(manifest.backupID)) is intact: identity \(TerminalText.escaped(manifest.feedID)), made at \(manifest.createdAt) (Unix)")
                    for (name, count) in manifest.counts.sorted(by: { $0.key < $1.key }) where count > 0 {
                        Output.line("  \(TerminalText.escaped(name)): \(count)")
                    }
                    Output.line("  window: \(manifest.window.map(String.init) ?? "all"), blobs: \(manifest.includesBlobs ? "yes" : "no")")
                }
            }
        }
    }
}
