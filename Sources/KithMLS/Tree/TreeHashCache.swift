import Synchronization

/// Memoized subtree hashes (RFC 9420 §7.8) of one ratchet tree value, by node index, for one cipher suite.
///
/// Copies of a ``RatchetTree`` share one cache until a copy changes a node: the changing copy first takes a private
/// copy of the cache (copy on write) and then forgets the changed node and its ancestors. Reads may fill the cache from
/// several threads, so the entries sit behind a mutex. The cache takes no part in equality or hashing of the tree.
final class TreeHashCache: Sendable, Hashable {
    private struct Entries: Sendable {
        var suite: CipherSuiteID?
        var hashes: [UInt32: [UInt8]] = [:]
    }

    private let entries: Mutex<Entries>

    init() { entries = Mutex(Entries()) }

    private init(copying other: Entries) { entries = Mutex(other) }

    /// An independent copy with the same entries.
    func copy() -> TreeHashCache { TreeHashCache(copying: entries.withLock { $0 }) }

    /// The cached hash of `node` for `suite`, if any.
    func hash(of node: NodeIndex, suite: CipherSuiteID) -> [UInt8]? {
        entries.withLock { $0.suite == suite ? $0.hashes[node.value] : nil }
    }

    /// Records the hash of `node` for `suite` (entries of another suite are dropped first).
    func store(_ hash: [UInt8], of node: NodeIndex, suite: CipherSuiteID) {
        entries.withLock { state in
            if state.suite != suite {
                state.suite = suite
                state.hashes = [:]
            }
            state.hashes[node.value] = hash
        }
    }

    /// Forgets the entries of `nodes`.
    func forget(_ nodes: [NodeIndex]) {
        entries.withLock { state in for node in nodes { state.hashes[node.value] = nil } }
    }

    /// Forgets every entry at index `bound` or above.
    func forget(from bound: UInt32) {
        entries.withLock { state in state.hashes = state.hashes.filter { $0.key < bound } }
    }

    /// Caches never distinguish trees.
    static func == (lhs: TreeHashCache, rhs: TreeHashCache) -> Bool { true }

    /// Caches contribute nothing to a tree's hash.
    func hash(into hasher: inout Hasher) {}
}
