/// Resolutions and filtered direct paths (RFC 9420 §4.1.1–4.1.2).
extension RatchetTree {
    /// The resolution of `node`: the minimal set of non-blank nodes covering its subtree, with unmerged leaves, left to right.
    public func resolution(of node: NodeIndex) -> [NodeIndex] {
        resolution(of: node, excluding: [])
    }

    /// The resolution of `node`, leaving out the leaves in `excluded` (used for parent hashes and path encryption to new members).
    public func resolution(of node: NodeIndex, excluding excluded: Set<LeafIndex>) -> [NodeIndex] {
        var result: [NodeIndex] = []
        guard math.contains(node) else { return result }
        appendResolution(of: node, excluding: excluded, to: &result)
        return result
    }

    private func appendResolution(of node: NodeIndex, excluding excluded: Set<LeafIndex>, to result: inout [NodeIndex]) {
        switch nodes[Int(node.value)] {
        case .leaf?:
            if let leaf = node.leafIndex, excluded.contains(leaf) { return }
            result.append(node)
        case .parent(let parent)?:
            result.append(node)
            for leaf in parent.unmergedLeaves where !excluded.contains(leaf) { result.append(leaf.nodeIndex) }
        case nil:
            guard let left = math.left(node), let right = math.right(node) else { return }
            appendResolution(of: left, excluding: excluded, to: &result)
            appendResolution(of: right, excluding: excluded, to: &result)
        }
    }

    /// True when the resolution of `node` is non-empty: some node of its subtree is non-blank.
    func hasNonBlankNode(under node: NodeIndex) -> Bool {
        guard math.contains(node) else { return false }
        let range = math.subtreeNodeRange(of: node)
        var index = range.lowerBound
        while index < range.upperBound {
            if nodes[index] != nil { return true }
            index += 1
        }
        return false
    }

    /// The filtered direct path of a leaf: direct-path nodes whose copath child has a non-empty resolution (RFC 9420 §4.1.2).
    public func filteredDirectPath(of leaf: LeafIndex) -> [NodeIndex] {
        filteredDirectPathWithCopath(of: leaf).map(\.node)
    }

    /// The copath child of each node of the filtered direct path, paired with that node.
    public func filteredDirectPathWithCopath(of leaf: LeafIndex) -> [(node: NodeIndex, copathChild: NodeIndex)] {
        var result: [(NodeIndex, NodeIndex)] = []
        var child = leaf.nodeIndex
        while let parent = math.parent(child), let sibling = math.sibling(child) {
            if hasNonBlankNode(under: sibling) { result.append((parent, sibling)) }
            child = parent
        }
        return result
    }
}
