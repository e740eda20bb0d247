/// Structural validation of a received ratchet tree (RFC 9420 §7.9.2, §12.4.3.1).
extension RatchetTree {
    /// Throws unless every leaf signature verifies, every parent node is parent-hash valid, unmerged leaves are consistent
    /// and no HPKE or signature key is used twice.
    ///
    /// The leaf signatures are independent of each other: they are checked on every core first
    /// (``ParallelSignatureChecks``), then reported in leaf order, so the first failure is the same as checking one by one.
    public func validate(suite: CipherSuite, groupID: [UInt8]) throws {
        var encryptionKeys: Set<[UInt8]> = []
        var signatureKeys: Set<[UInt8]> = []
        let leaves = occupiedLeaves.compactMap { index in leaf(index).map { (index, $0) } }
        let signaturesValid = ParallelSignatureChecks.run(count: leaves.count) { position in
            leaves[position].1.verifySignature(suite: suite, groupID: groupID, leafIndex: leaves[position].0)
        }
        for (position, (leafIndex, leaf)) in leaves.enumerated() {
            guard signaturesValid[position] else {
                throw MLSTreeError.invalidLeafSignature(leafIndex)
            }
            guard encryptionKeys.insert(leaf.encryptionKey).inserted else { throw MLSTreeError.duplicateKey("encryption key at \(leafIndex)") }
            guard signatureKeys.insert(leaf.signatureKey).inserted else { throw MLSTreeError.duplicateKey("signature key at \(leafIndex)") }
        }
        for index in stride(from: UInt32(1), to: UInt32(nodes.count), by: 2) {
            let node = NodeIndex(index)
            guard let parent = parent(node) else { continue }
            guard encryptionKeys.insert(parent.encryptionKey).inserted else { throw MLSTreeError.duplicateKey("encryption key at \(node)") }
            try checkUnmergedLeaves(parent, at: node)
        }
        try verifyParentHashes(suite: suite)
    }

    /// Unmerged leaves must be sorted, unique, occupied, below the node, and listed by every non-blank ancestor up to the node.
    private func checkUnmergedLeaves(_ parent: ParentNode, at node: NodeIndex) throws {
        let subtree = math.leaves(under: node)
        var previous: UInt32? = nil
        for leaf in parent.unmergedLeaves {
            guard subtree.contains(leaf.value), self.leaf(leaf) != nil else { throw MLSTreeError.invalidUnmergedLeaves(node) }
            if let previous, previous >= leaf.value { throw MLSTreeError.invalidUnmergedLeaves(node) }
            previous = leaf.value
            // Every non-blank node between the leaf and `node` must also list it.
            for ancestor in math.directPath(leaf.nodeIndex) where ancestor.value != node.value && math.isInSubtree(ancestor, of: node) {
                if let between = self.parent(ancestor), !between.unmergedLeaves.contains(leaf) {
                    throw MLSTreeError.invalidUnmergedLeaves(ancestor)
                }
            }
        }
    }
}
