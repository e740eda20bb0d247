/// The per-epoch tree of encryption secrets (RFC 9420 §9), deleting secrets as they are expanded (§9.2).
///
/// A value type; a copy carries its own ratchet positions.
public struct SecretTree: Sendable, Hashable {
    /// The suite deriving the secrets.
    public let suite: CipherSuite
    /// The shape of the ratchet tree the secrets belong to.
    let math: TreeMath
    /// Secrets of nodes not yet expanded, by node index.
    private(set) var nodeSecrets: [UInt32: [UInt8]]
    /// Handshake ratchets of the leaves expanded so far, by leaf index.
    private(set) var handshake: [UInt32: HashRatchet] = [:]
    /// Application ratchets of the leaves expanded so far, by leaf index.
    private(set) var application: [UInt32: HashRatchet] = [:]

    /// Creates the tree of an epoch from its `encryption_secret` for a ratchet tree of `leafCount` leaves (a power of two).
    public init(suite: CipherSuite, encryptionSecret: [UInt8], leafCount: UInt32) throws {
        guard let math = TreeMath(leafCount: leafCount) else { throw MLSTreeError.malformedEncoding("leaf count \(leafCount) is not a power of two") }
        self.init(suite: suite, encryptionSecret: encryptionSecret, math: math)
    }

    /// Creates the tree of an epoch with the shape of a ratchet tree.
    public init(suite: CipherSuite, encryptionSecret: [UInt8], math: TreeMath) {
        self.suite = suite
        self.math = math
        self.nodeSecrets = [math.root.value: encryptionSecret]
    }

    /// Reassembles a tree from its parts, as read back from a serialized group state (``GroupState/init(serializedState:configuration:)``).
    init(suite: CipherSuite, math: TreeMath, nodeSecrets: [UInt32: [UInt8]], handshake: [UInt32: HashRatchet], application: [UInt32: HashRatchet]) {
        self.suite = suite
        self.math = math
        self.nodeSecrets = nodeSecrets
        self.handshake = handshake
        self.application = application
    }

    private mutating func ratchets(for leaf: LeafIndex) throws -> (HashRatchet, HashRatchet) {
        if let h = handshake[leaf.value], let a = application[leaf.value] { return (h, a) }
        let target = leaf.nodeIndex
        guard math.contains(target) else { throw MLSSecretTreeError.leafOutOfRange(leaf) }
        // Find the lowest ancestor (or the leaf itself) whose secret is still stored.
        var path = [target] + math.directPath(target)
        guard let startIndex = path.firstIndex(where: { nodeSecrets[$0.value] != nil }) else {
            throw MLSSecretTreeError.generationConsumed(leaf, 0)
        }
        path = Array(path[...startIndex].reversed())
        for node in path.dropLast() {
            guard let secret = nodeSecrets.removeValue(forKey: node.value),
                  let left = math.left(node), let right = math.right(node) else { break }
            nodeSecrets[left.value] = try suite.expandWithLabel(secret: secret, label: "tree", context: Array("left".utf8), length: suite.secretSize)
            nodeSecrets[right.value] = try suite.expandWithLabel(secret: secret, label: "tree", context: Array("right".utf8), length: suite.secretSize)
        }
        guard let leafSecret = nodeSecrets.removeValue(forKey: target.value) else { throw MLSSecretTreeError.generationConsumed(leaf, 0) }
        let h = HashRatchet(secret: try suite.expandWithLabel(secret: leafSecret, label: "handshake", context: [], length: suite.secretSize))
        let a = HashRatchet(secret: try suite.expandWithLabel(secret: leafSecret, label: "application", context: [], length: suite.secretSize))
        handshake[leaf.value] = h
        application[leaf.value] = a
        return (h, a)
    }

    /// The next key for sending from `leaf`'s ratchet of `kind`.
    public mutating func nextKey(leaf: LeafIndex, kind: RatchetKind) throws -> RatchetKey {
        var (h, a) = try ratchets(for: leaf)
        switch kind {
        case .handshake:
            let key = try h.next(suite, leaf: leaf)
            handshake[leaf.value] = h
            return key
        case .application:
            let key = try a.next(suite, leaf: leaf)
            application[leaf.value] = a
            return key
        }
    }

    /// The key of `generation` for receiving from `leaf`; each key can be obtained only once.
    public mutating func key(leaf: LeafIndex, kind: RatchetKind, generation: UInt32) throws -> RatchetKey {
        var (h, a) = try ratchets(for: leaf)
        switch kind {
        case .handshake:
            let key = try h.key(for: generation, suite, leaf: leaf)
            handshake[leaf.value] = h
            return key
        case .application:
            let key = try a.key(for: generation, suite, leaf: leaf)
            application[leaf.value] = a
            return key
        }
    }
}
