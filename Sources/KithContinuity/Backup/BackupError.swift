/// Why a backup could not be written, opened or read. Every case says what to do next.
public enum BackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key or passphrase does not open this file, or the file is not a Kith backup at all (the first chunk does
    /// not authenticate). Nothing has been written when this is thrown.
    case wrongKeyOrNotABackup
    /// The file does not start with the backup magic or has a version this reader does not know.
    case notABackup(String)
    /// The header names key-derivation parameters outside the bounds a reader accepts.
    case unacceptableParameters(String)
    /// A chunk after the first failed to authenticate, the file ended early, or chunks were reordered or swapped.
    case tampered(String)
    /// The decrypted payload is not a well-formed record stream (bad lengths, wrong order, missing manifest or end).
    case malformed(String)
    /// The recovery key text is not 64 characters of the backup alphabet, or its checksum does not match.
    case invalidRecoveryKey(String)
    /// The passphrase is empty or too long.
    case invalidPassphrase(String)
    /// A stream the caller handed in failed to read or write.
    case io(String)

    public var description: String {
        switch self {
        case .wrongKeyOrNotABackup:
            "wrong recovery key or not a Kith backup: check the key (or KITH_BACKUP_PASSPHRASE) and the file"
        case .notABackup(let reason): "not a Kith backup: \(reason)"
        case .unacceptableParameters(let reason): "backup header refused: \(reason)"
        case .tampered(let reason): "backup is damaged or was tampered with: \(reason); use another copy"
        case .malformed(let reason): "backup content is malformed: \(reason)"
        case .invalidRecoveryKey(let reason): "invalid recovery key: \(reason); type the 64 characters shown when the backup was made"
        case .invalidPassphrase(let reason): "invalid backup passphrase: \(reason)"
        case .io(let reason): "backup I/O failed: \(reason)"
        }
    }
}
