import KithMLS
import Testing

/// A joiner checks the leaf signatures of a big tree on every core (``RatchetTree/validate(suite:groupID:)``) and reports
/// the same error, for the same leaf, as a leaf-by-leaf check would.
@Suite struct ParallelTreeValidationTests {
    /// A 40-member suite-1 tree (above the parallel threshold) and the signature private keys of its leaves, by leaf.
    private static func tree() throws -> (tree: RatchetTree, signatureKeys: [[UInt8]], suite: CipherSuite, groupID: [UInt8]) {
        let suite = try CipherSuite(rawValue: 1)
        let groupID: [UInt8] = [4, 0]
        let members = try (0..<40).map { index in
            try KeyPackage.generate(suite: suite, credential: .basic(identity: [UInt8(index)]), signatureKeys: suite.signature.generateKeyPair(),
                                    lifetime: Lifetime(notBefore: 0, notAfter: .max))
        }
        var creator = try GroupState(creating: groupID, keyPackage: members[0].keyPackage, secrets: members[0].secrets,
                                     configuration: GroupConfiguration(clock: { nil }))
        let tree = try creator.commit(adding: members.dropFirst().map(\.keyPackage)).newState.tree
        #expect(tree.occupiedLeaves.count == 40)
        return (tree, members.map(\.secrets.signaturePrivateKey), suite, groupID)
    }

    private static func tamperSignature(_ tree: inout RatchetTree, at leaf: UInt32) throws {
        var node = try #require(tree.leaf(LeafIndex(leaf)))
        node.signature[0] ^= 0x01
        tree.setNode(.leaf(node), at: LeafIndex(leaf).nodeIndex)
    }

    @Test func aValidBigTreeValidates() throws {
        let (tree, _, suite, groupID) = try Self.tree()
        try tree.validate(suite: suite, groupID: groupID)
    }

    @Test func theFirstBadLeafSignatureIsReported() throws {
        var (tree, _, suite, groupID) = try Self.tree()
        try Self.tamperSignature(&tree, at: 31)
        try Self.tamperSignature(&tree, at: 25)
        try Self.tamperSignature(&tree, at: 38)
        #expect(throws: MLSTreeError.invalidLeafSignature(LeafIndex(25))) { try tree.validate(suite: suite, groupID: groupID) }
    }

    @Test func anEarlierDuplicateKeyWinsOverALaterBadSignature() throws {
        var (tree, keys, suite, groupID) = try Self.tree()
        try Self.tamperSignature(&tree, at: 30)
        // Leaf 12 takes leaf 3's encryption key and is re-signed, so its own signature is valid.
        var node = try #require(tree.leaf(LeafIndex(12)))
        node.encryptionKey = try #require(tree.leaf(LeafIndex(3))).encryptionKey
        try node.sign(suite: suite, signaturePrivateKey: keys[12], groupID: groupID, leafIndex: LeafIndex(12))
        tree.setNode(.leaf(node), at: LeafIndex(12).nodeIndex)
        #expect(throws: MLSTreeError.duplicateKey("encryption key at leaf 12")) { try tree.validate(suite: suite, groupID: groupID) }
        // And a bad signature before the duplicate is reported first.
        try Self.tamperSignature(&tree, at: 7)
        #expect(throws: MLSTreeError.invalidLeafSignature(LeafIndex(7))) { try tree.validate(suite: suite, groupID: groupID) }
    }
}
