import KithCanonical

/// Structural validation of a received ratchet tree (RFC 9420 §7.9.2, §12.4.3.1).
extension RatchetTree {
    /// Throws unless every leaf signature verifies, every parent node is parent-hash valid, unmerged leaves are consistent
    /// and no HPKE or signature key is used twice.
    ///
    /// The leaf signatures are independent of each other: they are checked on every core first (`ConcurrentChecks`)
    /// and their verdicts used in leaf order below, so the error reported is the one a leaf-by-leaf check would report.
    public func validate(suite: CipherSuite, groupID: [UInt8]) throws {
        var collected: [(index: LeafIndex, leaf: LeafNode)] = []
        forEachMember { collected.append(($0, $1)) }
        let members = collected
        let signaturesValid = ConcurrentChecks.run(count: members.count) { position in
            members[position].leaf.verifySignature(suite: suite, groupID: groupID, leafIndex: members[position].index)
        }
        var encryptionKeys: Set<[UInt8]> = []
        var signatureKeys: Set<[UInt8]> = []
        for (position, (leafIndex, leaf)) in members.enumerated() {
            guard signaturesValid[position] else { throw MLSTreeError.invalidLeafSignature(leafIndex) }
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
