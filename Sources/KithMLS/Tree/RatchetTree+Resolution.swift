/// Resolutions and filtered direct paths (RFC 9420 §4.1.1–4.1.2).
extension RatchetTree {
    /// The resolution of `node`: the minimal set of non-blank nodes covering its subtree, with unmerged leaves, left to right.
    public func resolution(of node: NodeIndex) -> [NodeIndex] {
        resolution(of: node, excluding: [])
    }

    /// The resolution of `node`, leaving out the leaves in `excluded` (used for parent hashes and path encryption to new members).
    public func resolution(of node: NodeIndex, excluding excluded: Set<LeafIndex>) -> [NodeIndex] {
        guard math.contains(node) else { return [] }
        switch self[node: node] {
        case .leaf?:
            if let leaf = node.leafIndex, excluded.contains(leaf) { return [] }
            return [node]
        case .parent(let parent)?:
            return [node] + parent.unmergedLeaves.filter { !excluded.contains($0) }.map(\.nodeIndex)
        case nil:
            guard let left = math.left(node), let right = math.right(node) else { return [] }
            return resolution(of: left, excluding: excluded) + resolution(of: right, excluding: excluded)
        }
    }

    /// The filtered direct path of a leaf: direct-path nodes whose copath child has a non-empty resolution (RFC 9420 §4.1.2).
    public func filteredDirectPath(of leaf: LeafIndex) -> [NodeIndex] {
        var result: [NodeIndex] = []
        var child = leaf.nodeIndex
        while let parent = math.parent(child), let sibling = math.sibling(child) {
            if !resolution(of: sibling).isEmpty { result.append(parent) }
            child = parent
        }
        return result
    }

    /// The copath child of each node of the filtered direct path, paired with that node.
    public func filteredDirectPathWithCopath(of leaf: LeafIndex) -> [(node: NodeIndex, copathChild: NodeIndex)] {
        var result: [(NodeIndex, NodeIndex)] = []
        var child = leaf.nodeIndex
        while let parent = math.parent(child), let sibling = math.sibling(child) {
            if !resolution(of: sibling).isEmpty { result.append((parent, sibling)) }
            child = parent
        }
        return result
    }
}
