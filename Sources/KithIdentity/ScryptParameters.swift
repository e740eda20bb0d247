/// Cost parameters of the scrypt passphrase KDF used by ``FileKeyVault``.
public struct ScryptParameters: Sendable, Equatable {
    /// log2 of the CPU/memory cost N.
    public var log2N: UInt8
    /// Block size r.
    public var blockSize: UInt8
    /// Parallelism p.
    public var parallelism: UInt8

    /// Creates parameters; ``validate()`` bounds them.
    public init(log2N: UInt8, blockSize: UInt8, parallelism: UInt8) {
        self.log2N = log2N
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The default: N = 2^15, r = 8, p = 1 (32 MiB, about 0.1 s on one core).
    public static let interactive = ScryptParameters(log2N: 15, blockSize: 8, parallelism: 1)
    /// Cheap parameters for tests and demos only: N = 2^10.
    public static let testing = ScryptParameters(log2N: 10, blockSize: 8, parallelism: 1)

    /// The most a vault may cost to open: scrypt's `128 · r · N · p` bytes at Kith's own default
    /// (``interactive``: 128 · 8 · 2^15 · 1 = 32 MiB). Memory is `128 · r · N` ≤ 32 MiB and the
    /// work (`2 · N · r · p` block mixes) is at most the default's, about 0.1 s on one core, so a
    /// crafted header cannot demand more than opening any vault Kith writes.
    public static let maximumCostBytes = 128 * 8 * (1 << 15)

    /// scrypt's cost in bytes, `128 · r · N · p`: its memory times its passes over that memory.
    public var costBytes: Int { 128 * Int(blockSize) * (1 << Int(min(log2N, 31))) * Int(parallelism) }

    /// Accepted parameters (docs/FEED-FORMAT.md section 2, "Key vault file"): log2N 10...20,
    /// r 1...16, p 1...4 and ``costBytes`` ≤ ``maximumCostBytes``. Anything else is a corrupt vault
    /// and is refused before scrypt runs; Kith never writes parameters outside these bounds.
    public var isWithinBounds: Bool {
        (10...20).contains(log2N) && (1...16).contains(blockSize) && (1...4).contains(parallelism)
            && costBytes <= Self.maximumCostBytes
    }

    /// Bytes of memory scrypt needs with these parameters (128 · r · N · p, plus slack).
    var memoryBytes: Int { costBytes + (1 << 20) }
}
