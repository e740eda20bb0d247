/// Parent hashes (RFC 9420 §7.9).
extension RatchetTree {
    /// The parent hash of parent `node` with copath child `copathChild`:
    /// `Hash(ParentHashInput{encryption_key, parent_hash, original_sibling_tree_hash})`.
    public func parentHash(of node: NodeIndex, copathChild: NodeIndex, suite: CipherSuite) -> [UInt8]? {
        guard let parent = parent(node) else { return nil }
        let excluded = Set(parent.unmergedLeaves)
        let siblingHash = treeHash(of: copathChild, suite: suite, excluding: excluded)
        var writer = TLSWriter()
        writer.writeOpaque(parent.encryptionKey)
        writer.writeOpaque(parent.parentHash)
        writer.writeOpaque(siblingHash)
        return suite.digest(writer.bytes)
    }

    /// The `parent_hash` field of a node: a parent's field, or a commit leaf's; nil otherwise.
    func storedParentHash(_ node: NodeIndex) -> [UInt8]? {
        switch self[node: node] {
        case .parent(let parent)?: return parent.parentHash
        case .leaf(let leaf)?:
            if case .commit(let hash) = leaf.source { return hash }
            return nil
        case nil: return nil
        }
    }

    /// True when the non-blank parent `node` is parent-hash valid relative to one of its children (RFC 9420 §7.9.2).
    public func isParentHashValid(_ node: NodeIndex, suite: CipherSuite) -> Bool {
        guard let parent = parent(node), let left = math.left(node), let right = math.right(node) else { return false }
        for (child, copath) in [(left, right), (right, left)] {
            guard let expected = parentHash(of: node, copathChild: copath, suite: suite) else { continue }
            let resolution = resolution(of: child)
            let subtree = math.leaves(under: child)
            let unmergedBelow = Set(parent.unmergedLeaves.filter { subtree.contains($0.value) }.map(\.nodeIndex))
            for candidate in resolution where storedParentHash(candidate) == expected {
                if Set(resolution.filter { $0 != candidate }) == unmergedBelow { return true }
            }
        }
        return false
    }

    /// Throws unless every non-blank parent node is parent-hash valid.
    public func verifyParentHashes(suite: CipherSuite) throws {
        for index in stride(from: UInt32(1), to: UInt32(nodes.count), by: 2) where parent(NodeIndex(index)) != nil {
            guard isParentHashValid(NodeIndex(index), suite: suite) else { throw MLSTreeError.parentHashMismatch(NodeIndex(index)) }
        }
    }
}
