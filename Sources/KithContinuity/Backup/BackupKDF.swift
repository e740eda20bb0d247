/// How the payload key of a backup is derived: from a recovery key, or from a passphrase by scrypt.
public enum BackupKDF: Sendable, Equatable {
    /// The 32-byte recovery key shown once, through HKDF-SHA256.
    case recoveryKey
    /// A passphrase through scrypt with these parameters (N = 2^`log2N`), then HKDF-SHA256.
    case scrypt(log2N: UInt8, blockSize: UInt8, parallelism: UInt8)

    /// The default passphrase parameters: N = 2^16, r = 8, p = 1 (64 MiB), twice the vault's default cost.
    public static let defaultScrypt = BackupKDF.scrypt(log2N: 16, blockSize: 8, parallelism: 1)

    /// The header byte naming the KDF.
    var identifier: UInt8 {
        switch self {
        case .recoveryKey: 1
        case .scrypt: 2
        }
    }

    /// Throws unless the parameters are inside `BackupLimits`' bounds.
    func validate() throws(BackupError) {
        guard case .scrypt(let log2N, let r, let p) = self else { return }
        guard BackupLimits.scryptLog2NRange.contains(log2N), BackupLimits.scryptBlockSizeRange.contains(r),
              BackupLimits.scryptParallelismRange.contains(p)
        else {
            throw .unacceptableParameters("scrypt log2N \(log2N), r \(r), p \(p) outside log2N 15...20, r 8...16, p 1...4")
        }
        let cost = 128 * Int(r) * (1 << Int(log2N)) * Int(p)
        guard cost <= BackupLimits.maximumScryptCostBytes else {
            throw .unacceptableParameters("scrypt would cost \(cost >> 20) MiB, more than \(BackupLimits.maximumScryptCostBytes >> 20) MiB")
        }
    }
}
