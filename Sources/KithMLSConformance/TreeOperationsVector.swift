import KithMLS
/// A `tree-operations.json` case (RFC 9420 §7.7, §12.1): apply one Add, Update or Remove.
public struct TreeOperationsVector: ConformanceVector {
    /// `tree-operations.json`.
    public static let fileName = "tree-operations.json"

    let cipher_suite: UInt16
    let tree_before: HexString
    let proposal: HexString
    let proposal_sender: UInt32
    let tree_hash_before: HexString
    let tree_after: HexString
    let tree_hash_after: HexString

    /// Checks the tree hash before, the tree bytes after, and the tree hash after.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            var tree = try RatchetTree(tlsEncoded: tree_before.bytes)
            try Conformance.expectEqual("tree_hash_before", tree.rootTreeHash(suite: suite), tree_hash_before.bytes)
            switch try Proposal(tlsEncoded: proposal.bytes) {
            case .add(let keyPackage): try tree.addLeaf(keyPackage.leafNode)
            case .update(let leaf): try tree.updateLeaf(leaf, at: LeafIndex(proposal_sender))
            case .remove(let leaf): try tree.removeLeaf(leaf)
            default: throw ConformanceMismatch("unexpected proposal type")
            }
            try Conformance.expectEqual("tree_after", tree.tlsEncoded, tree_after.bytes)
            try Conformance.expectEqual("tree_hash_after", tree.rootTreeHash(suite: suite), tree_hash_after.bytes)
        }
    }
}
