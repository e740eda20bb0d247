import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity

extension RecoveryCommand {
    /// `kith recovery combine RELEASE... [--into DIR [--backup FILE] [--key-file F] [--no-rotate]]` (on the new device).
    struct Combine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "On the new device: rebuild the lost identity from guardians' releases (into a new home with --into).",
            discussion: """
                With --into and --backup, the new home is restored from the backup (opened with the backup key the \
                guardian set carried, else --key-file, KITH_BACKUP_PASSPHRASE or KITH_BACKUP_KEY) and a key_rotation \
                with reason device_migration, signed by the old key, is published (skip it with --no-rotate). Without \
                a backup the home holds only the identity: add your contacts' cards and sync with one of them; the \
                sync that brings your feed back publishes the rotation (unless --no-rotate).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The release texts the guardians gave you.")
        var releases: [String]

        @Option(help: "An empty directory to write the rebuilt identity's home into (seed sealed under a new passphrase).")
        var into: String?

        @Option(help: "The latest backup of the identity, restored into the new home (needs --into).")
        var backup: String?

        @Option(name: .customLong("key-file"), help: "A file holding the backup's recovery key, when the guardian set carried none.")
        var keyFile: String?

        @Flag(name: .customLong("no-rotate"), help: "Do not publish the device_migration key rotation after restoring the backup.")
        var noRotate = false

        func validate() throws {
            if into == nil && (backup != nil || keyFile != nil || noRotate) {
                throw ValidationError("--backup, --key-file and --no-rotate need --into DIR")
            }
        }

        func run() async throws {
            try await Output.run {
                var parsed: [RecoveryRelease] = []
                for text in releases {
                    do throws(RecoveryError) { parsed.append(try RecoveryRelease(text: text)) } catch { throw KithError.recovery(error) }
                }
                let account = try await openAccount(global)
                let recovered = try await account.recovery.rebuild(from: parsed)
                var move: RecoveryMove?
                if let into {
                    var secret: BackupSecret?
                    if backup != nil, keyFile != nil || recovered.backupKey == nil || BackupSecretSource.environmentPassphrase != nil
                        || ProcessInfo.processInfo.environment[BackupSecretSource.keyVariable] != nil {
                        secret = try BackupSecretSource.forOpening(keyFile: keyFile)
                    }
                    move = try await Account.Recovery.move(
                        recovered, into: AccountHome(directory: URL(fileURLWithPath: into)),
                        backup: backup.map { URL(fileURLWithPath: $0) }, backupSecret: secret, rotate: !noRotate,
                        passphrase: { () throws(IdentityError) -> String in
                            try PassphraseSource.obtain(prompt: "New passphrase for the rebuilt identity: ", confirm: true)
                        })
                }
                if global.json {
                    var object = JSONObject()
                    object["feed_id"] = .string(recovered.identity.feedID.string)
                    object["rotated"] = .bool(recovered.keySeeds != nil)
                    object["carried_backup_key"] = .bool(recovered.backupKey != nil)
                    if let into { object["home"] = .string(into) }
                    if let move {
                        object["restored_backup"] = .bool(move.restore != nil)
                        object["device_migration_published"] = .bool(move.rotated)
                        object["awaiting_own_feed"] = .bool(move.account.isAwaitingHeadAfterRestore)
                    }
                    Output.json(.object(object))
                    return
                }
                Output.line("Rebuilt the identity \(recovered.identity.feedID.string).")
                guard let into, let move else {
                    Output.line("Nothing was written: run again with --into DIR to write its home.")
                    return
                }
                if let report = move.restore {
                    Output.line("Its home is \(into), restored from the backup (own feed up to \(report.ownHead)).")
                } else {
                    Output.line("Its home is \(into); it holds only the identity. Add your contacts' cards (`kith contact add`) and sync")
                    Output.line("with one of them: the sync that brings your feed back publishes the device_migration rotation"
                        + (noRotate ? " (not with --no-rotate: then run `kith rotate-keys --reason device_migration`)." : "."))
                    Output.line("Posting waits until then.")
                }
                if move.rotated {
                    Output.line("Published a key rotation (device_migration) signed by the old key: contacts see a verified move.")
                } else if move.restore != nil {
                    Output.line("No rotation published (--no-rotate): sync with a contact before posting, or run `kith rotate-keys --reason device_migration`.")
                }
                Output.line("Your guardians hold the old keys: run `kith recovery setup` again from the new home.")
            }
        }
    }
}
