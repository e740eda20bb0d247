import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithIdentity
import KithTerminal

extension BackupCommand {
    /// `kith backup restore FILE --home DIR`.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Restore a backup into a new, empty home (asks for the new vault passphrase as `kith init` does)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var backup: BackupFileOptions

        func run() async throws {
            try await Output.run {
                let secret = try BackupSecretSource.forOpening(keyFile: backup.keyFile)
                let (account, report) = try await Account.restore(
                    from: URL(fileURLWithPath: backup.file), secret: secret, home: global.accountHome,
                    passphrase: { () throws(IdentityError) -> String in try PassphraseSource.obtain(prompt: "New passphrase: ", confirm: true) },
                    progress: BackupSecretSource.progress("restore"))
                if global.json {
                    var object = JSONObject()
                    object["feed_id"] = .string(account.feedID.string)
                    object["backup_id"] = .string(report.manifest.backupID)
                    object["own_head"] = .integer(report.ownHead)
                    var rows = JSONObject()
                    for (table, count) in report.importedRows.sorted(by: { $0.key < $1.key }) { rows[table] = .integer(count) }
                    object["imported"] = .object(rows)
                    object["groups_awaiting_readmission"] = .array(report.groupsAwaitingReadmission.map { .string($0.groupID) })
                    Output.json(.object(object))
                } else {
                    Output.line("Restored \(account.feedID) into \(global.accountHome.directory.path)")
                    for (table, count) in report.importedRows.sorted(by: { $0.key < $1.key }) { Output.line("  \(TerminalText.escaped(table)): \(count)") }
                    for group in report.groupsAwaitingReadmission {
                        Output.line("  group \(TerminalText.escaped(group.name ?? group.groupID)): its members are asked to readmit you once you can post")
                    }
                    Output.line("Before posting: sync with a contact (to learn what the old device posted since the backup), or run")
                    Output.line("`kith rotate-keys --reason device_migration`. Then fresh prekeys go to every contact and readmission")
                    Output.line("requests to each group's members by themselves; `kith backup status` shows what is pending.")
                }
            }
        }
    }
}
