import KithCanonical

/// Validation of KeyPackages and leaf nodes arriving in proposals (RFC 9420 §7.3, §10.1).
extension GroupState {
    /// Checks an Add proposal's KeyPackage: suite, version, signatures, leaf source, lifetime and key uniqueness.
    func validateKeyPackage(_ keyPackage: KeyPackage, in tree: RatchetTree) throws {
        try validateKeyPackageItself(keyPackage)
        try checkUniqueKeys(keyPackage.leafNode, in: tree, ignoring: nil)
        try CapabilityRules.check(keyPackage.leafNode, extensions: context.extensions, tree: tree, ignoring: nil)
    }

    /// Validates the KeyPackages of a commit's Add proposals and adds their leaves to `tree` in order (RFC 9420 §12.1.1).
    ///
    /// Uniqueness and credential checks against the members use a ``MembershipIndex``, so adding n members to a group
    /// of m costs O(n + m) comparisons rather than O(n·m). `extensions` are the GroupContext extensions of the new epoch
    /// (a GroupContextExtensions proposal of the same commit applies first).
    func addValidatedKeyPackages(_ keyPackages: [KeyPackage], to tree: inout RatchetTree,
                                 extensions: [Extension]) throws -> [(leaf: LeafIndex, keyPackage: KeyPackage)] {
        guard !keyPackages.isEmpty else { return [] }
        // A few adds scan the members directly; indexing them costs more than a handful of scans.
        var index = keyPackages.count > MLSLimits.directMembershipCheckLimit ? MembershipIndex(tree: tree) : nil
        var searchFrom: UInt32 = 0
        var added: [(leaf: LeafIndex, keyPackage: KeyPackage)] = []
        added.reserveCapacity(keyPackages.count)
        // The two signatures of every KeyPackage are independent of each other and of the tree:
        // checked on every core first, then used in order below (same errors, same order).
        let suite = suite
        let groupID = context.groupID
        let signaturesValid = ConcurrentChecks.run(count: keyPackages.count) { index in
            keyPackages[index].verifySignature(suite: suite)
                && keyPackages[index].leafNode.verifySignature(suite: suite, groupID: groupID, leafIndex: LeafIndex(0))
        }
        for (position, keyPackage) in keyPackages.enumerated() {
            try validateKeyPackageItself(keyPackage, signaturesValid: signaturesValid[position])
            let leafNode = keyPackage.leafNode
            try CapabilityRules.checkOwn(leafNode, extensions: extensions)
            if index?.admits(leafNode) != true {
                try checkUniqueKeys(leafNode, in: tree, ignoring: nil)
                try CapabilityRules.check(leafNode, extensions: extensions, tree: tree, ignoring: nil)
            }
            let leaf = try tree.addLeaf(leafNode, searchingFrom: searchFrom)
            searchFrom = leaf.value + 1
            index?.insert(leafNode)
            added.append((leaf, keyPackage))
        }
        return added
    }

    /// The checks of a KeyPackage that do not involve the tree: suite, version, signatures, keys, source and lifetime.
    /// - Parameter signaturesValid: both signatures already checked together (true), or to check here (nil).
    private func validateKeyPackageItself(_ keyPackage: KeyPackage, signaturesValid: Bool? = nil) throws {
        guard keyPackage.cipherSuite == suite.id else { throw MLSGroupError.invalidKeyPackage("cipher suite differs from the group's") }
        guard keyPackage.version == context.version else { throw MLSGroupError.invalidKeyPackage("protocol version differs") }
        // A failed pre-check is re-run here only to name which of the two signatures failed.
        if signaturesValid == true {
            try validateKeyPackageFields(keyPackage)
            return
        }
        guard keyPackage.verifySignature(suite: suite) else { throw MLSGroupError.invalidKeyPackage("signature does not verify") }
        try validateKeyPackageFields(keyPackage)
        guard keyPackage.leafNode.verifySignature(suite: suite, groupID: context.groupID, leafIndex: LeafIndex(0)) else {
            throw MLSGroupError.invalidKeyPackage("leaf signature does not verify")
        }
    }

    /// The KeyPackage checks that involve no signature: distinct keys, leaf source and lifetime.
    private func validateKeyPackageFields(_ keyPackage: KeyPackage) throws {
        guard keyPackage.initKey != keyPackage.leafNode.encryptionKey else { throw MLSGroupError.invalidKeyPackage("init key equals encryption key") }
        guard case .keyPackage(let lifetime) = keyPackage.leafNode.source else { throw MLSGroupError.invalidKeyPackage("leaf source is not key_package") }
        if let now = configuration.clock(), !lifetime.contains(now) { throw MLSGroupError.invalidKeyPackage("lifetime does not cover the current time") }
    }

    /// Checks an Update proposal's leaf for `leaf`: source, signature and key uniqueness.
    func validateUpdateLeaf(_ node: LeafNode, at leaf: LeafIndex, in tree: RatchetTree) throws {
        guard case .update = node.source else { throw MLSGroupError.invalidProposalList("Update leaf source is not update") }
        guard node.verifySignature(suite: suite, groupID: context.groupID, leafIndex: leaf) else {
            throw MLSTreeError.invalidLeafSignature(leaf)
        }
        guard tree.leaf(leaf)?.encryptionKey != node.encryptionKey else { throw MLSTreeError.duplicateKey("encryption key reused by Update") }
        try checkUniqueKeys(node, in: tree, ignoring: leaf)
        try CapabilityRules.check(node, extensions: context.extensions, tree: tree, ignoring: leaf)
    }

    /// Checks the new leaf of a commit's UpdatePath (RFC 9420 §7.3, §7.5, §12.4.2): keys unique among the other members and
    /// the capability rules of ``CapabilityRules`` against the GroupContext extensions after the commit.
    /// `leaf` is nil for an external commit, whose leaf is not in the tree yet. Source, signature and parent hash are
    /// checked when the path is merged.
    func validateCommitPathLeaf(_ node: LeafNode, at leaf: LeafIndex?, in tree: RatchetTree, extensions: [Extension]) throws {
        try checkUniqueKeys(node, in: tree, ignoring: leaf)
        try CapabilityRules.check(node, extensions: extensions, tree: tree, ignoring: leaf)
    }

    /// Rejects a leaf whose encryption or signature key is already used by another leaf.
    func checkUniqueKeys(_ node: LeafNode, in tree: RatchetTree, ignoring: LeafIndex?) throws {
        try tree.forEachMember { index, other in
            guard index != ignoring else { return }
            if other.encryptionKey == node.encryptionKey { throw MLSTreeError.duplicateKey("encryption key of \(index)") }
            if other.signatureKey == node.signatureKey { throw MLSTreeError.duplicateKey("signature key of \(index)") }
        }
    }
}
