import ArgumentParser

/// The backup file and where its recovery key comes from, shared by `kith backup verify` and `restore`.
struct BackupFileOptions: ParsableArguments {
    @Argument(help: "The backup file.")
    var file: String

    @Option(name: .customLong("key-file"), help: "A file holding the recovery key (else KITH_BACKUP_KEY or a prompt).")
    var keyFile: String?
}
