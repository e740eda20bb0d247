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

    /// Accepted range: log2N 10...20, r 1...16, p 1...4 (a crafted vault cannot demand gigabytes).
    public var isWithinBounds: Bool {
        (10...20).contains(log2N) && (1...16).contains(blockSize) && (1...4).contains(parallelism)
    }

    /// Bytes of memory scrypt needs with these parameters (128 * r * N, plus slack).
    var memoryBytes: Int { 128 * Int(blockSize) * (1 << Int(log2N)) * Int(parallelism) + (1 << 20) }
}
