/// Per-session tunables, persisted with the session.
public struct RatchetConfiguration: Sendable, Equatable {
    /// When the sender repeats the chain-starting ML-KEM ciphertext (and, before the first reply,
    /// the X3DH prelude) in its messages.
    public enum PQCarryPolicy: UInt8, Sendable {
        /// Only the first message of each sending chain carries them (feed spec: "only on ratchet
        /// step"). Relies on the feed delivering every envelope eventually: a later message of a
        /// chain that arrives first fails with ``RatchetError/missingPQCiphertext`` and is retried.
        case firstMessageOfChain = 0
        /// Every message of the chain carries them, so any message that arrives can be read even
        /// if earlier ones are lost for good (about 1.1 KB extra per message).
        case everyMessage = 1
    }

    /// The carry policy.
    public var pqCarryPolicy: PQCarryPolicy
    /// Seconds after which a stored skipped message key is deleted.
    public var skippedKeyLifetime: UInt64

    /// Creates a configuration (defaults: first message of chain, 30 days).
    public init(
        pqCarryPolicy: PQCarryPolicy = .firstMessageOfChain,
        skippedKeyLifetime: UInt64 = RatchetConstants.defaultSkippedKeyLifetime
    ) {
        self.pqCarryPolicy = pqCarryPolicy
        self.skippedKeyLifetime = skippedKeyLifetime
    }
}
