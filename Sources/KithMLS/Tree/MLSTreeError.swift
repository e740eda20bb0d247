/// Errors raised when a ratchet tree is malformed, invalid or misused.
public enum MLSTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The encoded node list has an even length or ends in a blank node.
    case malformedEncoding(String)
    /// A leaf position held a parent node or vice versa.
    case wrongNodeType(NodeIndex)
    /// A leaf index lies outside the tree.
    case leafOutOfRange(LeafIndex)
    /// A leaf that should hold a member is blank.
    case blankLeaf(LeafIndex)
    /// A tree hash did not match.
    case treeHashMismatch
    /// A parent node is not covered by a valid parent-hash chain.
    case parentHashMismatch(NodeIndex)
    /// A leaf's signature does not verify.
    case invalidLeafSignature(LeafIndex)
    /// An unmerged-leaves list is inconsistent with the tree.
    case invalidUnmergedLeaves(NodeIndex)
    /// Two leaves or parents share an HPKE or signature key.
    case duplicateKey(String)
    /// The tree would exceed ``MLSLimits/maxLeafCount``.
    case treeFull
    /// A leaf node is invalid for the reason given.
    case invalidLeaf(LeafIndex, String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .malformedEncoding(let reason): "malformed ratchet tree encoding: \(reason)"
        case .wrongNodeType(let node): "\(node) has the wrong node type for its position"
        case .leafOutOfRange(let leaf): "\(leaf) lies outside the tree"
        case .blankLeaf(let leaf): "\(leaf) is blank"
        case .treeHashMismatch: "tree hash does not match"
        case .parentHashMismatch(let node): "\(node) is not covered by a valid parent-hash chain"
        case .invalidLeafSignature(let leaf): "signature of \(leaf) does not verify"
        case .invalidUnmergedLeaves(let node): "unmerged leaves of \(node) are inconsistent"
        case .duplicateKey(let what): "duplicate \(what) in the tree"
        case .treeFull: "the tree cannot grow beyond \(MLSLimits.maxLeafCount) leaves"
        case .invalidLeaf(let leaf, let reason): "\(leaf) is invalid: \(reason)"
        }
    }
}
