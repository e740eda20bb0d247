import KithMLS
/// A `tree-validation.json` case (RFC 9420 §4.1, §7.1–7.9).
public struct TreeValidationVector: ConformanceVector {
    /// `tree-validation.json`.
    public static let fileName = "tree-validation.json"

    let cipher_suite: UInt16
    let tree: HexString
    let group_id: HexString
    let resolutions: [[UInt32]]
    let tree_hashes: [HexString]

    /// Checks every node's resolution and tree hash, and that the tree validates (signatures, parent hashes).
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let ratchetTree = try RatchetTree(tlsEncoded: tree.bytes)
            let hashes = ratchetTree.allTreeHashes(suite: suite)
            try Conformance.expect(resolutions.count <= hashes.count && tree_hashes.count <= hashes.count, "vector lists more nodes than the tree")
            for (index, expected) in resolutions.enumerated() {
                try Conformance.expectEqual("resolution(\(index))", ratchetTree.resolution(of: NodeIndex(UInt32(index))).map(\.value), expected)
            }
            for (index, expected) in tree_hashes.enumerated() {
                try Conformance.expectEqual("tree_hash(\(index))", hashes[index], expected.bytes)
            }
            try Conformance.expectEqual("root tree hash", ratchetTree.rootTreeHash(suite: suite), hashes[Int(ratchetTree.root.value)])
            try ratchetTree.validate(suite: suite, groupID: group_id.bytes)
        }
    }
}
