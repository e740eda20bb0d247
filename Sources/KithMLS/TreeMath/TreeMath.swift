/// Array-based binary tree arithmetic for a tree with a power-of-two number of leaves (RFC 9420 §4.1, Appendix C).
///
/// All functions are total: out-of-range requests return nil instead of trapping.
public struct TreeMath: Sendable, Hashable {
    /// Number of leaves (a power of two, at least 1).
    public let leafCount: UInt32

    /// Creates the arithmetic for `leafCount` leaves; nil unless `leafCount` is a power of two within ``MLSLimits/maxLeafCount``.
    public init?(leafCount: UInt32) {
        guard leafCount > 0, leafCount <= MLSLimits.maxLeafCount, leafCount & (leafCount - 1) == 0 else { return nil }
        self.leafCount = leafCount
    }

    private init(validatedLeafCount: UInt32) { leafCount = validatedLeafCount }

    /// The arithmetic of a one-leaf tree.
    public static let singleLeaf = TreeMath(validatedLeafCount: 1)

    /// The smallest power-of-two leaf count that holds `leaves` leaves (at least 1).
    public static func fullLeafCount(for leaves: UInt32) -> UInt32 {
        var count: UInt32 = 1
        while count < leaves && count < MLSLimits.maxLeafCount { count <<= 1 }
        return count
    }

    /// Number of nodes in the array (`2 * leafCount - 1`).
    public var nodeCount: UInt32 { 2 * leafCount - 1 }

    /// The root node.
    public var root: NodeIndex { NodeIndex(leafCount - 1) }

    /// True when `node` lies inside the tree.
    public func contains(_ node: NodeIndex) -> Bool { node.value < nodeCount }

    /// The left child of a parent node; nil for leaves.
    public func left(_ node: NodeIndex) -> NodeIndex? {
        let level = node.level
        guard level > 0 else { return nil }
        return NodeIndex(node.value ^ (1 << (level - 1)))
    }

    /// The right child of a parent node; nil for leaves.
    public func right(_ node: NodeIndex) -> NodeIndex? {
        let level = node.level
        guard level > 0 else { return nil }
        return NodeIndex(node.value ^ (3 << (level - 1)))
    }

    /// The parent of `node`; nil for the root or a node outside the tree.
    public func parent(_ node: NodeIndex) -> NodeIndex? {
        guard contains(node), node != root else { return nil }
        let level = node.level
        let bit = (node.value >> (level + 1)) & 1
        return NodeIndex((node.value | (1 << level)) ^ (bit << (level + 1)))
    }

    /// The other child of `node`'s parent; nil for the root.
    public func sibling(_ node: NodeIndex) -> NodeIndex? {
        guard let parent = parent(node) else { return nil }
        return node < parent ? right(parent) : left(parent)
    }

    /// The direct path of `node`: its ancestors from its parent up to and including the root.
    public func directPath(_ node: NodeIndex) -> [NodeIndex] {
        var path: [NodeIndex] = []
        var current = node
        while let next = parent(current) {
            path.append(next)
            current = next
        }
        return path
    }

    /// The copath of `node`: the sibling of each node on the path from `node` up to (excluding) the root.
    public func copath(_ node: NodeIndex) -> [NodeIndex] {
        var path: [NodeIndex] = []
        var current = node
        while let sibling = sibling(current), let next = parent(current) {
            path.append(sibling)
            current = next
        }
        return path
    }

    /// True when `descendant` lies in the subtree rooted at `ancestor` (a node is its own descendant).
    public func isInSubtree(_ descendant: NodeIndex, of ancestor: NodeIndex) -> Bool {
        let level = ancestor.level
        let low = ancestor.value - ((1 << level) - 1)
        let high = ancestor.value + ((1 << level) - 1)
        return descendant.value >= low && descendant.value <= high
    }

    /// The array indices of the nodes in the subtree rooted at `node` (contiguous in the array representation).
    public func subtreeNodeRange(of node: NodeIndex) -> Range<Int> {
        let span = (1 << node.level) - 1
        return (Int(node.value) - Int(span))..<(Int(node.value) + Int(span) + 1)
    }

    /// The leaves in the subtree rooted at `node`, left to right.
    public func leaves(under node: NodeIndex) -> ClosedRange<UInt32> {
        let level = node.level
        let low = (node.value - ((1 << level) - 1)) / 2
        let high = (node.value + ((1 << level) - 1)) / 2
        return low...high
    }

    /// The lowest common ancestor of two nodes (a node is its own ancestor).
    public func commonAncestor(_ first: NodeIndex, _ second: NodeIndex) -> NodeIndex {
        let x = first.value, y = second.value
        let lx = first.level + 1, ly = second.level + 1
        if lx <= ly && x >> ly == y >> ly { return second }
        if ly <= lx && x >> lx == y >> lx { return first }
        var xn = x, yn = y
        var k: UInt32 = 0
        while xn != yn { xn >>= 1; yn >>= 1; k += 1 }
        return NodeIndex((xn << k) + (1 << (k - 1)) - 1)
    }
}
