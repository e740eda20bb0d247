import KithMLS
/// A `treekem.json` case (RFC 9420 §7.4–7.6, §12.4.2): process every given UpdatePath and round-trip freshly created ones.
public struct TreeKEMVector: ConformanceVector {
    /// `treekem.json`.
    public static let fileName = "treekem.json"

    struct PathSecret: Decodable, Sendable { let node: UInt32; let path_secret: HexString }
    struct PrivateLeaf: Decodable, Sendable {
        let index: UInt32; let encryption_priv: HexString; let signature_priv: HexString; let path_secrets: [PathSecret]
    }
    struct UpdatePathCase: Decodable, Sendable {
        let sender: UInt32; let update_path: HexString; let path_secrets: [HexString?]
        let commit_secret: HexString; let tree_hash_after: HexString
    }

    let cipher_suite: UInt16
    let group_id: HexString
    let epoch: UInt64
    let confirmed_transcript_hash: HexString
    let ratchet_tree: HexString
    let leaves_private: [PrivateLeaf]
    let update_paths: [UpdatePathCase]

    private func context(_ suite: CipherSuite, treeHash: [UInt8]) -> [UInt8] {
        GroupContext(cipherSuite: suite.id, groupID: group_id.bytes, epoch: epoch, treeHash: treeHash,
                     confirmedTranscriptHash: confirmed_transcript_hash.bytes, extensions: []).tlsEncoded
    }

    private func privateKeys(_ suite: CipherSuite, tree: RatchetTree) throws -> [UInt32: TreePrivateKeys] {
        var result: [UInt32: TreePrivateKeys] = [:]
        for entry in leaves_private {
            let leaf = LeafIndex(entry.index)
            guard let leafNode = tree.leaf(leaf) else { throw ConformanceMismatch("private leaf \(entry.index) is blank") }
            try Conformance.expectEqual("leaf \(entry.index) encryption key", try suite.kem.publicKey(privateKey: entry.encryption_priv.bytes), leafNode.encryptionKey)
            var keys = try TreePrivateKeys(leaf: leaf, leafPrivateKey: entry.encryption_priv.bytes, suite: suite)
            for secret in entry.path_secrets {
                let node = NodeIndex(secret.node)
                try keys.setPathSecret(secret.path_secret.bytes, for: node, suite: suite, expectedPublicKey: tree[node: node]?.encryptionKey)
            }
            result[entry.index] = keys
        }
        return result
    }

    /// Checks private keys against the tree, every UpdatePath's path secrets, commit secret and tree hash, and a fresh path per sender.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let tree = try RatchetTree(tlsEncoded: ratchet_tree.bytes)
            let keys = try privateKeys(suite, tree: tree)
            for (pathIndex, item) in update_paths.enumerated() {
                let name = "update_paths[\(pathIndex)]"
                let sender = LeafIndex(item.sender)
                let path = try UpdatePath(tlsEncoded: item.update_path.bytes)
                var merged = tree
                try TreeKEM.merge(path, from: sender, into: &merged, suite: suite, groupID: group_id.bytes)
                try Conformance.expectEqual("\(name) tree_hash_after", merged.rootTreeHash(suite: suite), item.tree_hash_after.bytes)
                let groupContext = context(suite, treeHash: item.tree_hash_after.bytes)
                for (leaf, expected) in item.path_secrets.enumerated() {
                    guard let expected, var receiver = keys[UInt32(leaf)] else { continue }
                    let processed = try TreeKEM.decrypt(path, from: sender, tree: merged, context: groupContext, excluding: [], keys: &receiver, suite: suite)
                    try Conformance.expectEqual("\(name) leaf \(leaf) path_secret", processed.pathSecret, expected.bytes)
                    try Conformance.expectEqual("\(name) leaf \(leaf) commit_secret", processed.commitSecret, item.commit_secret.bytes)
                }
                try roundTrip(suite: suite, tree: tree, keys: keys, sender: sender, name: name)
            }
        }
    }

    /// Creates a new UpdatePath as `sender` and checks that other private leaves derive the same commit secret and tree hash.
    private func roundTrip(suite: CipherSuite, tree: RatchetTree, keys: [UInt32: TreePrivateKeys], sender: LeafIndex, name: String) throws {
        guard let signer = leaves_private.first(where: { $0.index == sender.value }), let leaf = tree.leaf(sender) else { return }
        var created = tree
        let result = try TreeKEM.create(for: sender, leaf: leaf, signaturePrivateKey: signer.signature_priv.bytes, tree: &created, suite: suite,
                                        groupID: group_id.bytes, excluding: []) { context(suite, treeHash: $0) }
        let wire = try UpdatePath(tlsEncoded: result.path.tlsEncoded)
        var merged = tree
        try TreeKEM.merge(wire, from: sender, into: &merged, suite: suite, groupID: group_id.bytes)
        let treeHash = merged.rootTreeHash(suite: suite)
        try Conformance.expectEqual("\(name) own path tree hash", treeHash, created.rootTreeHash(suite: suite))
        try merged.verifyParentHashes(suite: suite)
        // Two receivers (nearest and farthest private leaf) keep the debug-build cost of P-521 reasonable.
        let others = keys.keys.filter { $0 != sender.value }.sorted()
        let receivers = Set([others.first, others.last].compactMap { $0 })
        for (index, receiverKeys) in keys where receivers.contains(index) {
            var receiver = receiverKeys
            let processed = try TreeKEM.decrypt(wire, from: sender, tree: merged, context: context(suite, treeHash: treeHash), excluding: [],
                                                keys: &receiver, suite: suite)
            try Conformance.expectEqual("\(name) own path commit_secret at leaf \(index)", processed.commitSecret, result.commitSecret)
        }
    }
}
