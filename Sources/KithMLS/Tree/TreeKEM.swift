/// The result of creating an UpdatePath.
public struct CreatedUpdatePath: Sendable {
    /// The UpdatePath to put in the Commit.
    public var path: UpdatePath
    /// `commit_secret` of the new epoch.
    public var commitSecret: [UInt8]
    /// The sender's new private keys (leaf and path nodes).
    public var privateKeys: TreePrivateKeys
    /// The path secret of each filtered-direct-path node, for Welcome `path_secret` entries.
    public var pathSecrets: [NodeIndex: [UInt8]]
}

/// The result of processing a received UpdatePath.
public struct ProcessedUpdatePath: Sendable {
    /// `commit_secret` of the new epoch.
    public var commitSecret: [UInt8]
    /// The path secret the receiver decrypted, at the lowest common ancestor with the sender.
    public var pathSecret: [UInt8]
    /// The node the decrypted path secret belongs to.
    public var pathSecretNode: NodeIndex
}

/// TreeKEM: creating, merging and decrypting UpdatePaths (RFC 9420 §7.4–7.6, §7.9.1).
public enum TreeKEM {
    /// Merges the public part of an UpdatePath into `tree`: the new leaf, blanked direct path, new path keys and parent hashes.
    ///
    /// Checks the path length, the leaf's source, signature and parent hash. Returns the filtered direct path with copath children.
    @discardableResult
    public static func merge(_ path: UpdatePath, from sender: LeafIndex, into tree: inout RatchetTree, suite: CipherSuite,
                             groupID: [UInt8]) throws -> [(node: NodeIndex, copathChild: NodeIndex)] {
        let filtered = tree.filteredDirectPathWithCopath(of: sender)
        guard path.nodes.count == filtered.count else {
            throw MLSTreeKEMError.pathLengthMismatch(expected: filtered.count, actual: path.nodes.count)
        }
        guard case .commit(let leafParentHash) = path.leafNode.source else { throw MLSTreeKEMError.invalidLeaf("source is not commit") }
        guard path.leafNode.verifySignature(suite: suite, groupID: groupID, leafIndex: sender) else {
            throw MLSTreeKEMError.invalidLeaf("signature does not verify")
        }
        let computed = applyPath(keys: path.nodes.map(\.encryptionKey), filtered: filtered, sender: sender, tree: &tree, suite: suite)
        guard computed == leafParentHash else { throw MLSTreeKEMError.parentHashMismatch }
        tree.setNode(.leaf(path.leafNode), at: sender.nodeIndex)
        return filtered
    }

    /// Blanks the sender's direct path, installs the path keys and returns the parent hash the sender's leaf must carry.
    private static func applyPath(keys: [[UInt8]], filtered: [(node: NodeIndex, copathChild: NodeIndex)], sender: LeafIndex,
                                  tree: inout RatchetTree, suite: CipherSuite) -> [UInt8] {
        tree.blankDirectPath(of: sender)
        for (entry, key) in zip(filtered, keys) {
            tree.setNode(.parent(ParentNode(encryptionKey: key, parentHash: [], unmergedLeaves: [])), at: entry.node)
        }
        var nextHash: [UInt8] = []
        for entry in filtered.reversed() {
            guard var parent = tree.parent(entry.node) else { continue }
            parent.parentHash = nextHash
            tree.setNode(.parent(parent), at: entry.node)
            nextHash = tree.parentHash(of: entry.node, copathChild: entry.copathChild, suite: suite) ?? []
        }
        return nextHash
    }

    /// Decrypts the receiver's path secret from a merged UpdatePath and derives the rest of the path and `commit_secret`.
    ///
    /// - Parameters:
    ///   - tree: the tree after ``merge(_:from:into:suite:groupID:)``.
    ///   - context: the serialized provisional GroupContext (with the merged tree's hash).
    ///   - excluding: leaves added by the same commit, which receive no path ciphertexts.
    ///   - keys: the receiver's private keys; updated with the new path keys.
    public static func decrypt(_ path: UpdatePath, from sender: LeafIndex, tree: RatchetTree, context: [UInt8], excluding: Set<LeafIndex>,
                               keys: inout TreePrivateKeys, suite: CipherSuite) throws -> ProcessedUpdatePath {
        let filtered = tree.filteredDirectPathWithCopath(of: sender)
        guard path.nodes.count == filtered.count else {
            throw MLSTreeKEMError.pathLengthMismatch(expected: filtered.count, actual: path.nodes.count)
        }
        guard keys.leaf != sender,
              let position = filtered.firstIndex(where: { tree.math.isInSubtree(keys.leaf.nodeIndex, of: $0.copathChild) }) else {
            throw MLSTreeKEMError.receiverNotInCopath
        }
        let resolution = tree.resolution(of: filtered[position].copathChild, excluding: excluding)
        let ciphertexts = path.nodes[position].encryptedPathSecret
        guard ciphertexts.count == resolution.count else { throw MLSTreeKEMError.ciphertextCountMismatch(filtered[position].node) }
        guard let slot = resolution.firstIndex(where: { keys.privateKey(for: $0) != nil }), let privateKey = keys.privateKey(for: resolution[slot]) else {
            throw MLSTreeKEMError.noDecryptionKey
        }
        let decrypted = try suite.decryptWithLabel(privateKey: privateKey, label: "UpdatePathNode", context: context, ciphertext: ciphertexts[slot])
        var secret = decrypted
        var updated = keys
        for index in position..<filtered.count {
            try updated.setPathSecret(secret, for: filtered[index].node, suite: suite, expectedPublicKey: path.nodes[index].encryptionKey)
            secret = try suite.deriveSecret(secret: secret, label: "path")
        }
        updated.prune(to: tree)
        keys = updated
        return ProcessedUpdatePath(commitSecret: secret, pathSecret: decrypted, pathSecretNode: filtered[position].node)
    }

    /// Creates an UpdatePath for `sender`, merging it into `tree`.
    ///
    /// - Parameters:
    ///   - leaf: the sender's new leaf content; its encryption key, source and signature are replaced.
    ///   - makeContext: builds the serialized provisional GroupContext from the merged tree's root hash.
    ///   - excluding: leaves added by the same commit.
    ///   - leafSecret: the fresh random leaf secret (random when nil; fixed only in tests).
    public static func create(for sender: LeafIndex, leaf: LeafNode, signaturePrivateKey: [UInt8], tree: inout RatchetTree, suite: CipherSuite,
                              groupID: [UInt8], excluding: Set<LeafIndex>, leafSecret: [UInt8]? = nil,
                              makeContext: ([UInt8]) -> [UInt8]) throws -> CreatedUpdatePath {
        let secret = leafSecret ?? (0..<suite.secretSize).map { _ in UInt8.random(in: 0...255) }
        let leafKeys = try suite.deriveKeyPair(secret: suite.deriveSecret(secret: secret, label: "node"))
        var privateKeys = TreePrivateKeys(leaf: sender, leafKeyPair: leafKeys)
        let filtered = tree.filteredDirectPathWithCopath(of: sender)
        var pathSecrets: [NodeIndex: [UInt8]] = [:]
        var publicKeys: [[UInt8]] = []
        var pathSecret = try suite.deriveSecret(secret: secret, label: "path")
        for entry in filtered {
            pathSecrets[entry.node] = pathSecret
            let keyPair = try suite.deriveKeyPair(secret: suite.deriveSecret(secret: pathSecret, label: "node"))
            privateKeys.setKeyPair(keyPair, for: entry.node)
            publicKeys.append(keyPair.publicKey)
            pathSecret = try suite.deriveSecret(secret: pathSecret, label: "path")
        }
        let commitSecret = pathSecret
        var work = tree
        let parentHash = applyPath(keys: publicKeys, filtered: filtered, sender: sender, tree: &work, suite: suite)
        var newLeaf = leaf
        newLeaf.encryptionKey = leafKeys.publicKey
        newLeaf.source = .commit(parentHash: parentHash)
        try newLeaf.sign(suite: suite, signaturePrivateKey: signaturePrivateKey, groupID: groupID, leafIndex: sender)
        work.setNode(.leaf(newLeaf), at: sender.nodeIndex)
        let encryption = suite.labeledEncryption(label: "UpdatePathNode", context: makeContext(work.rootTreeHash(suite: suite)))
        var nodes: [UpdatePathNode] = []
        for (entry, key) in zip(filtered, publicKeys) {
            guard let secretForNode = pathSecrets[entry.node] else { continue }
            let recipients = work.resolution(of: entry.copathChild, excluding: excluding)
            let ciphertexts = try recipients.map { recipient -> HPKECiphertext in
                guard let recipientKey = work[node: recipient]?.encryptionKey else { throw MLSTreeKEMError.noDecryptionKey }
                return try encryption.encrypt(to: recipientKey, plaintext: secretForNode)
            }
            nodes.append(UpdatePathNode(encryptionKey: key, encryptedPathSecret: ciphertexts))
        }
        tree = work
        return CreatedUpdatePath(path: UpdatePath(leafNode: newLeaf, nodes: nodes), commitSecret: commitSecret,
                                 privateKeys: privateKeys, pathSecrets: pathSecrets)
    }
}
