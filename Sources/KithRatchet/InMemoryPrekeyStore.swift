import Crypto
import KithIdentity
import Synchronization

/// A ``PrekeyStore`` kept in memory (tests, and a model for the SQLite-backed store).
public final class InMemoryPrekeyStore: PrekeyStore, Sendable {
    private struct Pool {
        var nextID: UInt32 = 1
        var keys: [UInt32: [UInt8]] = [:]
        var lastBatchSize = 0
    }

    private let pools = Mutex<[FeedID: Pool]>([:])
    private let lowWaterHandler: (@Sendable (FeedID, PrekeyPoolStatus) -> Void)?

    /// Creates an empty store; `lowWaterHandler` is called after a consumption leaves a pool
    /// below the low-water mark.
    public init(lowWaterHandler: (@Sendable (FeedID, PrekeyPoolStatus) -> Void)? = nil) {
        self.lowWaterHandler = lowWaterHandler
    }

    /// See ``PrekeyStore/generateOneTimePrekeys(count:forPeer:)``; ids continue from the last batch.
    public func generateOneTimePrekeys(count: Int = RatchetConstants.defaultOneTimePrekeyBatch, forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyBatch {
        let generated: Result<[OneTimePrekeyPublic], RatchetError> = pools.withLock { pools in
            var pool = pools[peer] ?? Pool()
            guard count >= 1, pool.keys.count + count <= RatchetConstants.maxOneTimePrekeys,
                  UInt64(pool.nextID) + UInt64(count) <= UInt64(UInt32.max)
            else { return .failure(.prekeyPoolFull(limit: RatchetConstants.maxOneTimePrekeys)) }
            var entries: [OneTimePrekeyPublic] = []
            for _ in 0..<count {
                let key = Curve25519.KeyAgreement.PrivateKey()
                pool.keys[pool.nextID] = Array(key.rawRepresentation)
                entries.append(OneTimePrekeyPublic(id: pool.nextID, publicKey: Array(key.publicKey.rawRepresentation)))
                pool.nextID += 1
            }
            pool.lastBatchSize = count
            pools[peer] = pool
            return .success(entries)
        }
        return try OneTimePrekeyBatch(entries: generated.get())
    }

    /// Adds an existing one-time prekey (restoring a persisted pool, or fixed test vectors).
    ///
    /// - Throws: ``RatchetError/prekeyPoolFull(limit:)`` when the pool is full, or
    ///   ``RatchetError/malformed(_:)`` when `id` is already in use.
    public func insert(id: UInt32, privateKey: Curve25519.KeyAgreement.PrivateKey, forPeer peer: FeedID) throws(RatchetError) {
        let outcome: RatchetError? = pools.withLock { pools in
            var pool = pools[peer] ?? Pool()
            guard pool.keys.count < RatchetConstants.maxOneTimePrekeys else {
                return .prekeyPoolFull(limit: RatchetConstants.maxOneTimePrekeys)
            }
            guard pool.keys[id] == nil else { return .malformed("one-time prekey id \(id) already in use") }
            pool.keys[id] = Array(privateKey.rawRepresentation)
            pool.nextID = max(pool.nextID, id &+ 1)
            pool.lastBatchSize = max(pool.lastBatchSize, pool.keys.count)
            pools[peer] = pool
            return nil
        }
        if let outcome { throw outcome }
    }

    /// See ``PrekeyStore/oneTimePrekey(id:forPeer:)``.
    public func oneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey? {
        guard let raw = pools.withLock({ $0[peer]?.keys[id] }) else { return nil }
        return try X25519Agreement.privateKey(raw)
    }

    /// See ``PrekeyStore/consumeOneTimePrekey(id:forPeer:)``.
    public func consumeOneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        let (raw, status) = pools.withLock { pools -> ([UInt8]?, PrekeyPoolStatus?) in
            guard var pool = pools[peer], let raw = pool.keys.removeValue(forKey: id) else { return (nil, nil) }
            pools[peer] = pool
            return (raw, PrekeyPoolStatus(remaining: pool.keys.count, lastBatchSize: pool.lastBatchSize))
        }
        guard let raw, let status else { throw .unknownOneTimePrekey(id: id) }
        if status.isBelowLowWater { lowWaterHandler?(peer, status) }
        return try X25519Agreement.privateKey(raw)
    }

    /// See ``PrekeyStore/status(forPeer:)``.
    public func status(forPeer peer: FeedID) throws(RatchetError) -> PrekeyPoolStatus {
        pools.withLock { pools in
            let pool = pools[peer] ?? Pool()
            return PrekeyPoolStatus(remaining: pool.keys.count, lastBatchSize: pool.lastBatchSize)
        }
    }
}
