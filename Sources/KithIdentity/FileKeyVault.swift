import Crypto
import CryptoExtras
import Foundation
import KithCanonical

/// A ``KeyVault`` that keeps the seed in one file, encrypted with ChaCha20-Poly1305 under a
/// key derived by scrypt from a passphrase.
///
/// File layout (all fields fixed size, 88 bytes in total):
///
///     magic "KITHVLT1" (8) | kdf 0x01 = scrypt (1) | log2N (1) | r (1) | p (1)
///     | salt (16) | nonce (12) | ChaCha20-Poly1305(seed) (32) | tag (16)
///
/// The first 28 bytes (magic to salt) are the AEAD's associated data, so no parameter can be
/// altered without the open failing. A wrong passphrase fails authentication and changes nothing.
public struct FileKeyVault: KeyVault {

    /// The vault file.
    public let url: URL
    /// Supplies the passphrase when it is needed.
    public let passphrase: @Sendable () throws(IdentityError) -> String
    /// Cost parameters for newly written vaults.
    public let parameters: ScryptParameters

    /// Creates a vault at `url`; `passphrase` is asked only when the seed is stored or loaded.
    public init(url: URL, parameters: ScryptParameters = .interactive, passphrase: @escaping @Sendable () throws(IdentityError) -> String) {
        self.url = url
        self.parameters = parameters
        self.passphrase = passphrase
    }

    public var containsSeed: Bool { FileManager.default.fileExists(atPath: url.path) }

    public func storeSeed(_ seed: Seed) throws(IdentityError) {
        guard !containsSeed else { throw .vaultExists(path: url.path) }
        guard parameters.isWithinBounds else {
            throw .keyDerivationFailed("scrypt parameters log2N \(parameters.log2N), r \(parameters.blockSize), p \(parameters.parallelism) "
                + "cost more than \(ScryptParameters.maximumCostBytes >> 20) MiB; readers would refuse the vault")
        }
        let secret = try checkedPassphrase()
        var writer = ByteWriter(capacity: KeyVaultFile.fileLength)
        writer.write(bytes: KeyVaultFile.magic)
        writer.write(KeyVaultFile.scryptID)
        writer.write(parameters.log2N)
        writer.write(parameters.blockSize)
        writer.write(parameters.parallelism)
        var salt = [UInt8](repeating: 0, count: 16)
        var rng = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = rng.next() }
        writer.write(bytes: salt)
        let header = writer.bytes
        let key = try Self.deriveKey(secret, salt: salt, parameters: parameters, path: url.path)
        let sealed: ChaChaPoly.SealedBox
        do {
            sealed = try seed.withUnsafeBytes { raw in
                try ChaChaPoly.seal(Data(raw), using: key, nonce: ChaChaPoly.Nonce(), authenticating: header)
            }
        } catch {
            throw .vaultIO(path: url.path, reason: "encryption failed: \(error)")
        }
        writer.write(bytes: sealed.combined)
        try write(Data(writer.bytes))
    }

    public func loadSeed() throws(IdentityError) -> Seed {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !containsSeed { throw .vaultMissing(path: url.path) }
            throw .vaultIO(path: url.path, reason: error.localizedDescription)
        }
        let file = try KeyVaultFile(parsing: Array(data), path: url.path)
        let key = try Self.deriveKey(try checkedPassphrase(), salt: file.salt, parameters: file.parameters, path: url.path)
        do {
            let box = try ChaChaPoly.SealedBox(combined: file.sealed)
            let plain = try ChaChaPoly.open(box, using: key, authenticating: file.header)
            return try Seed(bytes: plain)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .wrongPassphrase
        }
    }

    private func checkedPassphrase() throws(IdentityError) -> String {
        let secret = try passphrase()
        if secret.isEmpty { throw .invalidPassphrase("it is empty") }
        if secret.utf8.count > 1024 { throw .invalidPassphrase("it is longer than 1024 bytes") }
        return secret
    }

    private static func deriveKey(_ secret: String, salt: [UInt8], parameters: ScryptParameters, path: String) throws(IdentityError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: Array(secret.utf8),
                salt: salt,
                outputByteCount: 32,
                rounds: 1 << Int(parameters.log2N),
                blockSize: Int(parameters.blockSize),
                parallelism: Int(parameters.parallelism),
                maxMemory: parameters.memoryBytes
            )
        } catch {
            throw .vaultIO(path: path, reason: "scrypt failed: \(error)")
        }
    }

    private func write(_ data: Data) throws(IdentityError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            // A hard link fails if the target exists, so a concurrent `init` can never be overwritten.
            try FileManager.default.linkItem(at: temporary, to: url)
            try? FileManager.default.removeItem(at: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if containsSeed { throw .vaultExists(path: url.path) }
            throw .vaultIO(path: url.path, reason: error.localizedDescription)
        }
    }
}
