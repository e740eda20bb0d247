/// The named bounds of the backup container. A reader enforces every one before it allocates or derives.
public enum BackupLimits {
    /// Plaintext bytes in every chunk but the last (64 KiB).
    public static let chunkSize = 64 * 1024
    /// The Poly1305 tag appended to every chunk.
    public static let tagSize = 16
    /// The most chunks a file may have (the counter is 32 bits).
    public static let maximumChunks = UInt64(UInt32.max)
    /// The largest body one record may carry (16 MiB): a blob or an envelope is far smaller.
    public static let maximumRecordBody = 16 * 1024 * 1024
    /// The largest manifest (64 KiB of canonical JSON).
    public static let maximumManifest = 64 * 1024
    /// Salt bytes in the header.
    public static let saltSize = 32
    /// Random file id bytes in the header.
    public static let fileIDSize = 16
    /// The per-file nonce prefix (STREAM: prefix 7 ‖ counter 4 ‖ last-chunk flag 1).
    public static let noncePrefixSize = 7
    /// Longest passphrase accepted, in UTF-8 bytes (as the vault).
    public static let maximumPassphraseBytes = 1024
    /// scrypt bounds a reader accepts: log2 N 15...20 (never weaker than the vault's default N = 2^15), r 8...16,
    /// p 1...4, and at most `maximumScryptCostBytes` of `128 · r · N · p`.
    public static let scryptLog2NRange: ClosedRange<UInt8> = 15...20
    /// scrypt block size bounds.
    public static let scryptBlockSizeRange: ClosedRange<UInt8> = 8...16
    /// scrypt parallelism bounds.
    public static let scryptParallelismRange: ClosedRange<UInt8> = 1...4
    /// The most scrypt may cost a reader: 256 MiB (`128 · r · N · p`), so a crafted header cannot exhaust memory.
    public static let maximumScryptCostBytes = 256 * 1024 * 1024
}
