import Crypto
import CryptoExtras

/// What opens a backup: the recovery key or a passphrase. Never logged, never stored.
public enum BackupSecret: Sendable {
    /// The 32 bytes behind the 64-character recovery key.
    case recoveryKey(RecoveryKey)
    /// A passphrase (from `KITH_BACKUP_PASSPHRASE` or a prompt), stretched by scrypt.
    case passphrase(String)

    /// The HKDF info of the payload key.
    static let payloadKeyInfo = Array("kith backup v1 payload key".utf8)

    /// Derives the 32-byte ChaCha20-Poly1305 key for `header`; throws when the secret's kind does not match the header's.
    func payloadKey(for header: BackupHeader) throws(BackupError) -> SymmetricKey {
        let material: [UInt8]
        switch (self, header.kdf) {
        case (.recoveryKey(let key), .recoveryKey):
            material = key.bytes
        case (.passphrase(let passphrase), .scrypt(let log2N, let r, let p)):
            let utf8 = Array(passphrase.utf8)
            guard !utf8.isEmpty else { throw .invalidPassphrase("it is empty") }
            guard utf8.count <= BackupLimits.maximumPassphraseBytes else {
                throw .invalidPassphrase("it is longer than \(BackupLimits.maximumPassphraseBytes) bytes")
            }
            do {
                let stretched = try KDF.Scrypt.deriveKey(
                    from: utf8, salt: header.salt, outputByteCount: 32, rounds: 1 << Int(log2N),
                    blockSize: Int(r), parallelism: Int(p),
                    maxMemory: 128 * Int(r) * (1 << Int(log2N)) * Int(p) + (1 << 20))
                material = stretched.withUnsafeBytes { Array($0) }
            } catch {
                throw .io("scrypt failed: \(error)")
            }
        case (.recoveryKey, .scrypt):
            throw .wrongKeyOrNotABackup
        case (.passphrase, .recoveryKey):
            throw .wrongKeyOrNotABackup
        }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material), salt: header.salt, info: Self.payloadKeyInfo, outputByteCount: 32)
    }

    /// The header KDF this secret needs when writing.
    var writingKDF: BackupKDF {
        switch self {
        case .recoveryKey: .recoveryKey
        case .passphrase: .defaultScrypt
        }
    }
}
