import KithMLS
/// A `tree-math.json` case (RFC 9420 Appendix C).
public struct TreeMathVector: ConformanceVector {
    /// `tree-math.json`.
    public static let fileName = "tree-math.json"
    let n_leaves: UInt32
    let n_nodes: UInt32
    let root: UInt32
    let left: [UInt32?]
    let right: [UInt32?]
    let parent: [UInt32?]
    let sibling: [UInt32?]

    /// Checks node count, root and every left/right/parent/sibling entry.
    public func check() -> VectorOutcome {
        Conformance.run {
            guard let math = TreeMath(leafCount: n_leaves) else { throw ConformanceMismatch("leaf count \(n_leaves) rejected") }
            try Conformance.expectEqual("n_nodes", math.nodeCount, n_nodes)
            try Conformance.expectEqual("root", math.root.value, root)
            for index in 0..<n_nodes {
                let node = NodeIndex(index)
                let i = Int(index)
                guard i < left.count, i < right.count, i < parent.count, i < sibling.count else {
                    throw ConformanceMismatch("vector arrays shorter than n_nodes")
                }
                try Conformance.expectEqual("left(\(index))", math.left(node)?.value, left[i])
                try Conformance.expectEqual("right(\(index))", math.right(node)?.value, right[i])
                try Conformance.expectEqual("parent(\(index))", math.parent(node)?.value, parent[i])
                try Conformance.expectEqual("sibling(\(index))", math.sibling(node)?.value, sibling[i])
            }
        }
    }
}
