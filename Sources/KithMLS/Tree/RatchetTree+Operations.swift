/// Membership changes applied to the tree (RFC 9420 §7.7, §12.1.1–12.1.3).
extension RatchetTree {
    /// Blanks every parent node on the direct path of `leaf`.
    public mutating func blankDirectPath(of leaf: LeafIndex) {
        for node in math.directPath(leaf.nodeIndex) { setNode(nil, at: node) }
    }

    /// Adds a member in the leftmost blank leaf (extending the tree when full) and returns its index.
    ///
    /// The new leaf is listed as unmerged at every non-blank parent on its direct path.
    @discardableResult
    public mutating func addLeaf(_ leaf: LeafNode) throws -> LeafIndex {
        try addLeaf(leaf, searchingFrom: 0)
    }

    /// ``addLeaf(_:)`` when every leaf left of `start` is known to be occupied (consecutive adds of one commit).
    mutating func addLeaf(_ leaf: LeafNode, searchingFrom start: UInt32) throws -> LeafIndex {
        let index: LeafIndex
        if let blank = (min(start, leafCount)..<leafCount).first(where: { self[node: LeafIndex($0).nodeIndex] == nil }) {
            index = LeafIndex(blank)
        } else {
            index = LeafIndex(leafCount)
            try extend()
        }
        for node in math.directPath(index.nodeIndex) {
            if case .parent(var parent)? = self[node: node] {
                parent.unmergedLeaves.append(index)
                parent.unmergedLeaves.sort()
                setNode(.parent(parent), at: node)
            }
        }
        setNode(.leaf(leaf), at: index.nodeIndex)
        return index
    }

    /// Replaces a member's leaf and blanks its direct path (Update proposal).
    public mutating func updateLeaf(_ leaf: LeafNode, at index: LeafIndex) throws {
        guard math.contains(index.nodeIndex) else { throw MLSTreeError.leafOutOfRange(index) }
        guard self.leaf(index) != nil else { throw MLSTreeError.blankLeaf(index) }
        setNode(.leaf(leaf), at: index.nodeIndex)
        blankDirectPath(of: index)
    }

    /// Removes a member: blanks its leaf and direct path, then truncates blank right halves (Remove proposal).
    public mutating func removeLeaf(_ index: LeafIndex) throws {
        guard math.contains(index.nodeIndex) else { throw MLSTreeError.leafOutOfRange(index) }
        guard leaf(index) != nil else { throw MLSTreeError.blankLeaf(index) }
        setNode(nil, at: index.nodeIndex)
        blankDirectPath(of: index)
        truncate()
    }
}
