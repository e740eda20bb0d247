/// Applying a commit's proposals to the tree (RFC 9420 §12.3): the one path shared by creating a
/// commit (``GroupState/buildCommit(byValue:includePending:includePath:wireFormat:authenticatedData:ratchetTreeInWelcome:extraPSKs:)``)
/// and receiving one (``GroupState/applyCommit(_:content:)``).
extension GroupState {
    /// The tree and context extensions after a commit's proposals, and the members it adds.
    struct AppliedProposals {
        /// A copy of the tree with every proposal applied (the path is not merged yet).
        var tree: RatchetTree
        /// The group context extensions of the next epoch.
        var extensions: [Extension]
        /// The leaves the Adds filled, with their KeyPackages (Welcome recipients).
        var joiners: [(leaf: LeafIndex, keyPackage: KeyPackage)]
    }

    /// Applies resolved proposals to a copy of the tree in RFC 9420 order: GroupContextExtensions,
    /// Updates, Removes, then Adds (validated KeyPackages).
    ///
    /// New GroupContext extensions must be supported by every member after the commit, the members it
    /// adds included and the members it removes excluded (RFC 9420 §12.1.7): the remaining members are
    /// checked once the Removes are applied, each added member as its KeyPackage is validated.
    ///
    /// - Returns: nil when a Remove names this member's own leaf: the commit removes this member,
    ///   which learns nothing more of the next epoch.
    func applyProposals(_ proposals: ResolvedProposals) throws -> AppliedProposals? {
        var newTree = tree
        let newExtensions = proposals.groupContextExtensions ?? context.extensions
        for update in proposals.updates {
            try validateUpdateLeaf(update.node, at: update.leaf, in: newTree)
            try newTree.updateLeaf(update.node, at: update.leaf)
        }
        for removed in proposals.removes {
            guard newTree.leaf(removed) != nil else { throw MLSGroupError.invalidProposalList("Remove of a blank leaf") }
            if removed == ownLeaf { return nil }
            try newTree.removeLeaf(removed)
        }
        if let extensions = proposals.groupContextExtensions { try CapabilityRules.checkMembers(of: newTree, support: extensions) }
        let joiners = try addValidatedKeyPackages(proposals.adds, to: &newTree, extensions: newExtensions)
        return AppliedProposals(tree: newTree, extensions: newExtensions, joiners: joiners)
    }
}
