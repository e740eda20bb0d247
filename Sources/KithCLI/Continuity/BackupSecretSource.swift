import Foundation
import Kith
import KithContinuity
#if canImport(Glibc)
import Glibc
#endif

/// Where `kith backup` takes the backup's secret from: `KITH_BACKUP_PASSPHRASE` (scrypt), else a recovery key from
/// `--key-file`, `KITH_BACKUP_KEY` or a prompt.
enum BackupSecretSource {
    static let passphraseVariable = "KITH_BACKUP_PASSPHRASE"
    static let keyVariable = "KITH_BACKUP_KEY"

    /// The passphrase from the environment, if set.
    static var environmentPassphrase: BackupSecret? {
        ProcessInfo.processInfo.environment[passphraseVariable].map { .passphrase($0) }
    }

    /// The secret to open an existing backup.
    static func forOpening(keyFile: String?) throws -> BackupSecret {
        if let passphrase = environmentPassphrase { return passphrase }
        let text: String
        if let keyFile {
            guard let data = FileManager.default.contents(atPath: keyFile) else {
                throw KithError.input(.file(path: keyFile, reason: "cannot be read"))
            }
            text = String(decoding: data, as: UTF8.self)
        } else if let value = ProcessInfo.processInfo.environment[keyVariable] {
            text = value
        } else {
            guard isatty(STDIN_FILENO) == 1, let raw = getpass("Recovery key: ") else {
                throw KithError.input(.invalid("no recovery key: set KITH_BACKUP_KEY or KITH_BACKUP_PASSPHRASE, pass --key-file, or run on a terminal"))
            }
            text = String(cString: raw)
        }
        do { return .recoveryKey(try RecoveryKey(text: text)) } catch { throw KithError.continuity(.backup(error)) }
    }

    /// A progress callback drawing a percentage on standard error when it is a terminal.
    static func progress(_ label: String) -> BackupProgress? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { done, total in
            let percent = total == 0 ? 0 : min(100, done * 100 / total)
            FileHandle.standardError.write(Data("\r\(label): \(percent)% (\(done)/\(total))\(percent == 100 ? "\n" : "")".utf8))
        }
    }
}
