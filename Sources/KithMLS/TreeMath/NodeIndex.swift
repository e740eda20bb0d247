/// The index of a node in the array representation of a ratchet tree (RFC 9420 Appendix C).
///
/// Leaves sit at even indices, parents at odd indices.
public struct NodeIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw array index.
    public var value: UInt32

    /// Wraps a raw array index.
    public init(_ value: UInt32) { self.value = value }

    /// True for leaf nodes (even indices).
    public var isLeaf: Bool { value & 1 == 0 }

    /// The leaf index of a leaf node, or nil for a parent node.
    public var leafIndex: LeafIndex? { isLeaf ? LeafIndex(value / 2) : nil }

    /// The level of the node: 0 for leaves, the number of trailing one bits otherwise.
    public var level: UInt32 { UInt32((~value).trailingZeroBitCount) }

    /// Orders nodes by array position.
    public static func < (lhs: NodeIndex, rhs: NodeIndex) -> Bool { lhs.value < rhs.value }

    /// `node N`.
    public var description: String { "node \(value)" }
}
