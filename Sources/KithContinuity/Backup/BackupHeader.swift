import KithCanonical

/// The plaintext header of a backup file, authenticated as associated data of every chunk.
///
///     magic "KITHBAK1" (8) | version 0x01 (1) | kdf (1: 0x01 recovery key, 0x02 scrypt)
///     | log2N (1) | r (1) | p (1)   (zero for the recovery key)
///     | salt (32) | file id (16) | nonce prefix (7)                       = 68 bytes
public struct BackupHeader: Sendable, Equatable {
    /// The eight magic bytes that open every backup.
    public static let magic: [UInt8] = Array("KITHBAK1".utf8)
    /// The only format version this reader knows.
    public static let version: UInt8 = 1
    /// Encoded length in bytes.
    public static let encodedSize = 8 + 1 + 1 + 3 + BackupLimits.saltSize + BackupLimits.fileIDSize + BackupLimits.noncePrefixSize

    /// How the payload key is derived.
    public let kdf: BackupKDF
    /// Random salt for the key derivation.
    public let salt: [UInt8]
    /// Random id of this file (also the backup id in the manifest).
    public let fileID: [UInt8]
    /// Random nonce prefix of this file's chunks.
    public let noncePrefix: [UInt8]

    /// Creates a header; the byte arrays must have the sizes of `BackupLimits`.
    public init(kdf: BackupKDF, salt: [UInt8], fileID: [UInt8], noncePrefix: [UInt8]) {
        self.kdf = kdf
        self.salt = salt
        self.fileID = fileID
        self.noncePrefix = noncePrefix
    }

    /// The header's bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedSize)
        writer.write(bytes: Self.magic)
        writer.write(Self.version)
        writer.write(kdf.identifier)
        switch kdf {
        case .recoveryKey:
            writer.write(bytes: [0, 0, 0])
        case .scrypt(let log2N, let r, let p):
            writer.write(bytes: [log2N, r, p])
        }
        writer.write(bytes: salt)
        writer.write(bytes: fileID)
        writer.write(bytes: noncePrefix)
        return writer.bytes
    }

    /// Parses and bounds a header; throws before any key derivation runs.
    public static func parse(_ bytes: [UInt8]) throws(BackupError) -> BackupHeader {
        guard bytes.count == encodedSize else { throw .notABackup("the file is shorter than a backup header") }
        var reader = ByteReader(bytes)
        do {
            let magic = try reader.readBytes(8)
            guard magic == Self.magic else { throw BackupError.notABackup("it does not start with KITHBAK1") }
            let version = try reader.readUInt8()
            guard version == Self.version else {
                throw BackupError.notABackup("format version \(version) is not known to this Kith (it reads version \(Self.version))")
            }
            let kdfID = try reader.readUInt8()
            let parameters = try reader.readBytes(3)
            let kdf: BackupKDF
            switch kdfID {
            case 1:
                guard parameters == [0, 0, 0] else { throw BackupError.unacceptableParameters("recovery-key backups carry no scrypt parameters") }
                kdf = .recoveryKey
            case 2:
                kdf = .scrypt(log2N: parameters[0], blockSize: parameters[1], parallelism: parameters[2])
            default:
                throw BackupError.unacceptableParameters("unknown key derivation \(kdfID)")
            }
            try kdf.validate()
            let salt = try reader.readBytes(BackupLimits.saltSize)
            let fileID = try reader.readBytes(BackupLimits.fileIDSize)
            let prefix = try reader.readBytes(BackupLimits.noncePrefixSize)
            return BackupHeader(kdf: kdf, salt: salt, fileID: fileID, noncePrefix: prefix)
        } catch let error as BackupError {
            throw error
        } catch {
            throw .notABackup("the header is truncated")
        }
    }
}
