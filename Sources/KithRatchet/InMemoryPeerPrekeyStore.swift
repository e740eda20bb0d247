import KithIdentity
import Synchronization

/// A ``PeerPrekeyStore`` kept in memory (tests, and a model for the SQLite-backed store).
public final class InMemoryPeerPrekeyStore: PeerPrekeyStore, Sendable {
    private let pools = Mutex<[FeedID: [UInt32: [UInt8]]]>([:])

    /// Creates an empty store.
    public init() {}

    /// See ``PeerPrekeyStore/nextPeerPrekey(forPeer:)``.
    public func nextPeerPrekey(forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyPublic? {
        pools.withLock { pools in
            guard let pool = pools[peer], let id = pool.keys.min(), let key = pool[id] else { return nil }
            return OneTimePrekeyPublic(id: id, publicKey: key)
        }
    }

    /// See ``PeerPrekeyStore/removePeerPrekey(id:forPeer:)``.
    public func removePeerPrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) {
        _ = pools.withLock { $0[peer]?.removeValue(forKey: id) }
    }

    /// See ``PeerPrekeyStore/addPeerPrekeys(_:forPeer:)``.
    public func addPeerPrekeys(_ batch: OneTimePrekeyBatch, forPeer peer: FeedID) throws(RatchetError) {
        pools.withLock { pools in
            var pool = pools[peer] ?? [:]
            for entry in batch.entries where pool[entry.id] == nil { pool[entry.id] = entry.publicKey }
            pools[peer] = pool
        }
    }

    /// See ``PeerPrekeyStore/peerPrekeyCount(forPeer:)``.
    public func peerPrekeyCount(forPeer peer: FeedID) throws(RatchetError) -> Int {
        pools.withLock { $0[peer]?.count ?? 0 }
    }
}
