import ArgumentParser

/// `kith backup …`: encrypted backups (docs/CONTINUITY.md).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Encrypted, versioned backups: create, verify, restore on a new device, scheduled runs.",
        subcommands: [Create.self, Verify.self, Restore.self, Schedule.self, Status.self, Readmit.self]
    )
}
