import KithCanonical

/// The parsed layout of a key vault file (``FileKeyVault``), checked before any key derivation:
/// the exact length, the magic, the key derivation function and scrypt parameters within
/// ``ScryptParameters/isWithinBounds`` (so a crafted file cannot make the open cost more memory
/// or time than Kith's own default).
public struct KeyVaultFile: Sendable, Equatable {
    static let magic: [UInt8] = Array("KITHVLT1".utf8)
    static let scryptID: UInt8 = 0x01
    static let headerLength = 28
    static let fileLength = 88

    /// The scrypt cost parameters the file was sealed with.
    public let parameters: ScryptParameters
    /// The 16-byte scrypt salt.
    public let salt: [UInt8]
    /// Nonce, ciphertext and tag of the sealed seed (ChaCha20-Poly1305 combined form, 60 bytes).
    public let sealed: [UInt8]
    /// The first 28 bytes (magic to salt): the AEAD's associated data.
    public let header: [UInt8]

    /// Parses vault file bytes; `path` only names the file in errors.
    ///
    /// - Throws: ``IdentityError/vaultCorrupt(path:reason:)`` naming the first check that failed.
    public init(parsing bytes: [UInt8], path: String) throws(IdentityError) {
        guard bytes.count == Self.fileLength else {
            throw .vaultCorrupt(path: path, reason: "expected \(Self.fileLength) bytes, found \(bytes.count)")
        }
        var reader = ByteReader(bytes)
        do {
            guard try reader.readBytes(8) == Self.magic else {
                throw IdentityError.vaultCorrupt(path: path, reason: "not a Kith key vault (bad magic)")
            }
            guard try reader.readUInt8() == Self.scryptID else {
                throw IdentityError.vaultCorrupt(path: path, reason: "unknown key derivation function")
            }
            let parameters = ScryptParameters(log2N: try reader.readUInt8(), blockSize: try reader.readUInt8(), parallelism: try reader.readUInt8())
            guard parameters.isWithinBounds else {
                throw IdentityError.vaultCorrupt(
                    path: path,
                    reason: "scrypt parameters log2N \(parameters.log2N), r \(parameters.blockSize), p \(parameters.parallelism) are outside the accepted bounds (cost at most \(ScryptParameters.maximumCostBytes >> 20) MiB, Kith's default)")
            }
            self.parameters = parameters
            salt = try reader.readBytes(16)
            sealed = reader.readRemaining()
            header = Array(bytes[0..<Self.headerLength])
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .vaultCorrupt(path: path, reason: "\(error)")
        }
    }
}
