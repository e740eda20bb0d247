import ArgumentParser
import Foundation
import Kith
import KithContinuity

extension BackupCommand {
    /// `kith backup schedule --dir DIR --keep N`: one scheduled run (cron or a systemd timer runs it periodically).
    struct Schedule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "Write a new dated backup into DIR and keep the newest N (run it from cron or a systemd timer).",
            discussion: """
                Needs a secret without a prompt: KITH_BACKUP_PASSPHRASE, or --key-file (created with a fresh recovery key, \
                mode 0600, on the first run; keep a copy of the key elsewhere) — and KITH_PASSPHRASE for the vault.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The folder the backups go to.")
        var dir: String

        @Option(help: "How many backups to keep (older ones are deleted).")
        var keep: Int = 7

        @Option(name: .customLong("key-file"), help: "Recovery key file (created on first use) when KITH_BACKUP_PASSPHRASE is unset.")
        var keyFile: String?

        @Option(help: "Keep only the newest N messages of each followed feed.")
        var window: Int?

        @Flag(help: "Include stored blobs.")
        var blobs = false

        static let prefix = "kith-backup-"
        static let suffix = ".kithbackup"

        func run() async throws {
            try await Output.run {
                guard keep >= 1 else { throw KithError.input(.invalid("--keep must be at least 1")) }
                let secret = try scheduledSecret()
                let account = try await openAccount(global)
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
                let name = Self.prefix + formatter.string(from: Date()) + Self.suffix
                let url = URL(fileURLWithPath: dir).appendingPathComponent(name)
                let summary = try await account.backup(to: url, secret: secret, options: BackupOptions(window: window, includeBlobs: blobs))
                let existing = (try FileManager.default.contentsOfDirectory(atPath: dir))
                    .filter { $0.hasPrefix(Self.prefix) && $0.hasSuffix(Self.suffix) }
                    .sorted()
                let pruned = existing.dropLast(keep)
                for old in pruned { try FileManager.default.removeItem(atPath: URL(fileURLWithPath: dir).appendingPathComponent(old).path) }
                try BackupCommand.printCreated(summary, file: url.path, key: nil, json: global.json)
                if !global.json, !pruned.isEmpty { Output.line("Pruned \(pruned.count) older backup(s); \(min(existing.count, keep)) kept.") }
            }
        }

        private func scheduledSecret() throws -> BackupSecret {
            if let passphrase = BackupSecretSource.environmentPassphrase { return passphrase }
            guard let keyFile else {
                throw KithError.input(.invalid("schedule needs KITH_BACKUP_PASSPHRASE or --key-file (no prompt in a scheduled run)"))
            }
            if !FileManager.default.fileExists(atPath: keyFile) {
                let key = RecoveryKey.generate()
                guard FileManager.default.createFile(atPath: keyFile, contents: Data((key.groupedText + "\n").utf8),
                                                     attributes: [.posixPermissions: 0o600]) else {
                    throw KithError.fileSystem(path: keyFile, reason: "cannot create the key file")
                }
                Output.error("kith: created recovery key file \(keyFile); keep a copy of it away from this device")
            }
            return try BackupSecretSource.forOpening(keyFile: keyFile)
        }
    }
}
