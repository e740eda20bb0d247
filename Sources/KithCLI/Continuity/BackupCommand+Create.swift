import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity

extension BackupCommand {
    /// `kith backup create FILE`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Write one sealed backup file; prints its recovery key once unless KITH_BACKUP_PASSPHRASE is set."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The backup file to write.")
        var file: String

        @Option(help: "Keep only the newest N messages of each followed feed (the own feed is always whole).")
        var window: Int?

        @Flag(help: "Include stored blobs (attachments).")
        var blobs = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let key = BackupSecretSource.environmentPassphrase == nil ? RecoveryKey.generate() : nil
                let secret = BackupSecretSource.environmentPassphrase ?? .recoveryKey(key ?? RecoveryKey.generate())
                let summary = try await account.backup(
                    to: URL(fileURLWithPath: file), secret: secret, options: BackupOptions(window: window, includeBlobs: blobs),
                    progress: BackupSecretSource.progress("backup"))
                try BackupCommand.printCreated(summary, file: file, key: key, json: global.json)
            }
        }
    }

    static func printCreated(_ summary: BackupSummary, file: String, key: RecoveryKey?, json: Bool) throws {
        if json {
            var object = JSONObject()
            object["file"] = .string(file)
            object["backup_id"] = .string(summary.manifest.backupID)
            object["feed_id"] = .string(summary.manifest.feedID)
            object["bytes"] = .integer(Int64(summary.fileBytes))
            object["records"] = .integer(Int64(summary.recordCount))
            if let key { object["recovery_key"] = .string(key.groupedText) }
            object["personas_not_carried"] = .integer(Int64(summary.personasNotCarried))
            Output.json(.object(object))
        } else {
            Output.line("Backup \(summary.manifest.backupID) of \(summary.manifest.feedID) written to \(file) (\(summary.fileBytes) bytes, \(summary.recordCount) records)")
            if let key {
                Output.line("Recovery key (shown once; write it down, it is the only way to open this backup):")
                Output.line("    \(key.groupedText)")
            } else {
                Output.line("Sealed under KITH_BACKUP_PASSPHRASE.")
            }
            if summary.personasNotCarried > 0 {
                Output.line("Not in this backup: \(summary.personasNotCarried) persona conversation(s); a persona is an identity of its own and is not carried (kith personas).")
            }
        }
    }
}
