/// The index of a leaf in a ratchet tree (leaves counted left to right from 0).
public struct LeafIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw leaf number.
    public var value: UInt32

    /// Wraps a raw leaf number.
    public init(_ value: UInt32) { self.value = value }

    /// The node index of this leaf in the array representation (`2 * leaf`).
    public var nodeIndex: NodeIndex { NodeIndex(value &* 2) }

    /// Orders leaves by position.
    public static func < (lhs: LeafIndex, rhs: LeafIndex) -> Bool { lhs.value < rhs.value }

    /// `leaf N`.
    public var description: String { "leaf \(value)" }
}
