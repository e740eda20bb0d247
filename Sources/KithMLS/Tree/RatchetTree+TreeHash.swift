/// Tree hashes (RFC 9420 §7.8).
extension RatchetTree {
    /// The tree hash of the root.
    public func rootTreeHash(suite: CipherSuite) -> [UInt8] {
        treeHash(of: root, suite: suite, excluding: [])
    }

    /// The tree hash of every node, indexed by node index.
    public func allTreeHashes(suite: CipherSuite) -> [[UInt8]] {
        var hashes = [[UInt8]](repeating: [], count: nodes.count)
        fill(&hashes, root, suite)
        return hashes
    }

    private func fill(_ hashes: inout [[UInt8]], _ node: NodeIndex, _ suite: CipherSuite) {
        if let left = math.left(node), let right = math.right(node) {
            fill(&hashes, left, suite)
            fill(&hashes, right, suite)
            hashes[Int(node.value)] = parentHashInput(node, hashes[Int(left.value)], hashes[Int(right.value)], suite, [])
        } else {
            hashes[Int(node.value)] = leafHashInput(node, suite, [])
        }
    }

    /// The tree hash of `node`'s subtree as if the leaves in `excluded` were blank and absent from every unmerged-leaves list.
    ///
    /// Subtrees without an excluded leaf are memoized (see ``TreeHashCache``), so after a change only the changed
    /// nodes' ancestors are hashed again.
    public func treeHash(of node: NodeIndex, suite: CipherSuite, excluding excluded: Set<LeafIndex>) -> [UInt8] {
        let cacheable = !excluded.contains { math.isInSubtree($0.nodeIndex, of: node) }
        if cacheable, let cached = hashCache.hash(of: node, suite: suite.id) { return cached }
        let hash: [UInt8]
        if let left = math.left(node), let right = math.right(node) {
            let leftHash = treeHash(of: left, suite: suite, excluding: cacheable ? [] : excluded)
            let rightHash = treeHash(of: right, suite: suite, excluding: cacheable ? [] : excluded)
            hash = parentHashInput(node, leftHash, rightHash, suite, cacheable ? [] : excluded)
        } else {
            hash = leafHashInput(node, suite, cacheable ? [] : excluded)
        }
        if cacheable { hashCache.store(hash, of: node, suite: suite.id) }
        return hash
    }

    private func leafHashInput(_ node: NodeIndex, _ suite: CipherSuite, _ excluded: Set<LeafIndex>) -> [UInt8] {
        let leafIndex = node.leafIndex ?? LeafIndex(node.value / 2)
        guard case .leaf(let leaf)? = self[node: node], !excluded.contains(leafIndex) else {
            // A blank leaf: node type, leaf index, absent leaf node.
            let value = leafIndex.value
            return suite.digest([1, UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                                 UInt8(truncatingIfNeeded: value), 0])
        }
        var writer = TLSWriter(reservingCapacity: Self.leafHashInputCapacity)
        writer.writeUInt8(1)
        writer.writeUInt32(leafIndex.value)
        writer.writeUInt8(1)
        leaf.encode(to: &writer)
        return suite.digest(writer.bytes)
    }

    /// Room for a typical `TreeHashInput` of a leaf (keys, a basic credential, capabilities, signature).
    private static let leafHashInputCapacity = 512

    private func parentHashInput(_ node: NodeIndex, _ leftHash: [UInt8], _ rightHash: [UInt8], _ suite: CipherSuite,
                                 _ excluded: Set<LeafIndex>) -> [UInt8] {
        var writer = TLSWriter(reservingCapacity: 256 + leftHash.count + rightHash.count)
        writer.writeUInt8(2)
        if case .parent(var parent)? = self[node: node] {
            if !excluded.isEmpty { parent.unmergedLeaves.removeAll { excluded.contains($0) } }
            writer.writeUInt8(1)
            parent.encode(to: &writer)
        } else {
            writer.writeUInt8(0)
        }
        writer.writeOpaque(leftHash)
        writer.writeOpaque(rightHash)
        return suite.digest(writer.bytes)
    }
}
