import KithCanonical


/// Message keys of skipped (not yet arrived) messages, bounded in count and age.
///
/// At most ``RatchetConstants/maxStoredSkippedKeys`` keys are kept; inserting beyond that evicts
/// the oldest (FIFO). Keys older than the session's lifetime are purged on every decryption.
public struct SkippedMessageKeys: Sendable, Equatable {
    /// One stored key.
    public struct Entry: Sendable, Equatable {
        /// The ratchet public key of the chain the key belongs to.
        public let ratchetPublicKey: [UInt8]
        /// The message number within that chain.
        public let messageNumber: UInt32
        /// The message key.
        public let messageKey: [UInt8]
        /// When the key was stored (Unix seconds).
        public let storedAt: UInt64
    }

    /// Stored keys, oldest first.
    public private(set) var entries: [Entry] = []

    /// Creates an empty store.
    public init() {}

    init(entries: [Entry]) { self.entries = entries }

    /// The number of stored keys.
    public var count: Int { entries.count }

    /// Stores a key, evicting the oldest when full.
    mutating func insert(ratchetPublicKey: [UInt8], messageNumber: UInt32, messageKey: [UInt8], now: UInt64) {
        if entries.count >= RatchetConstants.maxStoredSkippedKeys {
            entries.removeFirst(entries.count - RatchetConstants.maxStoredSkippedKeys + 1)
        }
        entries.append(Entry(ratchetPublicKey: ratchetPublicKey, messageNumber: messageNumber, messageKey: messageKey, storedAt: now))
    }

    /// Removes and returns the key of (`ratchetPublicKey`, `messageNumber`), if stored.
    mutating func take(ratchetPublicKey: [UInt8], messageNumber: UInt32) -> [UInt8]? {
        guard let index = entries.firstIndex(where: {
            $0.messageNumber == messageNumber && ConstantTime.equals($0.ratchetPublicKey, ratchetPublicKey)
        }) else { return nil }
        return entries.remove(at: index).messageKey
    }

    /// Deletes keys stored more than `lifetime` seconds before `now`.
    mutating func purge(now: UInt64, lifetime: UInt64) {
        entries.removeAll { now > $0.storedAt && now - $0.storedAt > lifetime }
    }
}
