/// The ratchet tree of a group in array representation (RFC 9420 §4, §7), always holding a power-of-two number of leaves.
///
/// A value type: copies are cheap and independent, so a failed operation on a copy leaves the original unchanged.
public struct RatchetTree: Hashable, Sendable, TLSCodable {
    /// Every node slot, `nil` for blank nodes; `nodes.count == 2 * leafCount - 1`.
    public private(set) var nodes: [Node?]
    /// The tree arithmetic for the current size.
    public private(set) var math: TreeMath
    /// Memoized subtree hashes, shared with unchanged copies (not part of equality).
    private(set) var hashCache = TreeHashCache()

    /// Creates a one-leaf tree holding `leaf`.
    public init(firstLeaf leaf: LeafNode) {
        nodes = [.leaf(leaf)]
        math = .singleLeaf
    }

    /// Creates a tree from node slots, padding with blanks to a full tree.
    public init(nodes: [Node?]) throws {
        guard !nodes.isEmpty else { throw MLSTreeError.malformedEncoding("empty tree") }
        guard nodes.count % 2 == 1 else { throw MLSTreeError.malformedEncoding("even number of nodes") }
        let leaves = UInt32(clamping: (nodes.count + 1) / 2)
        guard leaves <= MLSLimits.maxLeafCount else { throw MLSTreeError.treeFull }
        guard let math = TreeMath(leafCount: TreeMath.fullLeafCount(for: leaves)) else { throw MLSTreeError.treeFull }
        var padded = nodes
        padded.append(contentsOf: [Node?](repeating: nil, count: Int(math.nodeCount) - nodes.count))
        for (index, node) in padded.enumerated() {
            switch node {
            case .leaf?: guard index % 2 == 0 else { throw MLSTreeError.wrongNodeType(NodeIndex(UInt32(index))) }
            case .parent?: guard index % 2 == 1 else { throw MLSTreeError.wrongNodeType(NodeIndex(UInt32(index))) }
            case nil: break
            }
        }
        self.nodes = padded
        self.math = math
    }

    /// Number of leaf slots (a power of two).
    public var leafCount: UInt32 { math.leafCount }

    /// The root node index.
    public var root: NodeIndex { math.root }

    /// The node at `index`, nil when blank or out of range.
    public subscript(node index: NodeIndex) -> Node? {
        Int(index.value) < nodes.count ? nodes[Int(index.value)] : nil
    }

    /// The leaf node at `leaf`, nil when blank or out of range.
    public func leaf(_ leaf: LeafIndex) -> LeafNode? {
        if case .leaf(let node)? = self[node: leaf.nodeIndex] { return node }
        return nil
    }

    /// The parent node at `index`, nil when blank, a leaf or out of range.
    public func parent(_ index: NodeIndex) -> ParentNode? {
        if case .parent(let node)? = self[node: index] { return node }
        return nil
    }

    /// Replaces the node at `index` (nil blanks it); indices outside the tree are ignored.
    public mutating func setNode(_ node: Node?, at index: NodeIndex) {
        guard Int(index.value) < nodes.count else { return }
        nodes[Int(index.value)] = node
        privateHashCache().forget([index] + math.directPath(index))
    }

    /// The hash cache, copied first when other tree values share it.
    private mutating func privateHashCache() -> TreeHashCache {
        if !isKnownUniquelyReferenced(&hashCache) { hashCache = hashCache.copy() }
        return hashCache
    }

    /// The leaf indices that hold members, in order.
    public var occupiedLeaves: [LeafIndex] {
        var result: [LeafIndex] = []
        var index = 0
        while index < nodes.count {
            if nodes[index] != nil { result.append(LeafIndex(UInt32(index / 2))) }
            index += 2
        }
        return result
    }

    /// Calls `body` with each occupied leaf and its node, left to right.
    func forEachMember(_ body: (LeafIndex, LeafNode) throws -> Void) rethrows {
        var index = 0
        while index < nodes.count {
            if case .leaf(let leaf)? = nodes[index] { try body(LeafIndex(UInt32(index / 2)), leaf) }
            index += 2
        }
    }

    /// Encodes `optional<Node> ratchet_tree<V>` with trailing blank nodes omitted (RFC 9420 §12.4.3.3).
    public func encode(to writer: inout TLSWriter) {
        var last = nodes.count
        while last > 0 && nodes[last - 1] == nil { last -= 1 }
        writer.writeVector { inner in
            for node in nodes[..<last] { inner.writeOptional(node) }
        }
    }

    /// Decodes the `ratchet_tree` encoding, rejecting even lengths, a trailing blank and misplaced node types.
    public init(from reader: inout TLSReader) throws {
        let list = try reader.readVector { try $0.readOptional(of: Node.self) }
        guard list.last.flatMap({ $0 }) != nil else { throw MLSTreeError.malformedEncoding("last node is blank") }
        try self.init(nodes: list)
    }

    // MARK: Size changes

    /// Doubles the number of leaves, adding blank nodes on the right (RFC 9420 §7.7).
    mutating func extend() throws {
        guard leafCount < MLSLimits.maxLeafCount, let bigger = TreeMath(leafCount: leafCount * 2) else { throw MLSTreeError.treeFull }
        privateHashCache().forget(from: UInt32(nodes.count))
        nodes.append(contentsOf: [Node?](repeating: nil, count: Int(bigger.nodeCount) - nodes.count))
        math = bigger
    }

    /// Removes the right half of the tree while all of its leaves are blank, keeping at least one leaf (RFC 9420 §12.1.3).
    mutating func truncate() {
        while leafCount > 1, let smaller = TreeMath(leafCount: leafCount / 2) {
            let rightLeaves = (leafCount / 2)..<leafCount
            guard rightLeaves.allSatisfy({ leaf(LeafIndex($0)) == nil }) else { return }
            nodes.removeLast(nodes.count - Int(smaller.nodeCount))
            math = smaller
            privateHashCache().forget(from: smaller.nodeCount)
        }
    }
}
