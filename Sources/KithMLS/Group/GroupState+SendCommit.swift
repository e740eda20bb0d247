/// Creating Commits (RFC 9420 §12.4.1).
extension GroupState {
    /// Creates a commit adding and removing members, with an UpdatePath when `includePath` is true or required.
    ///
    /// Pending proposals of the epoch are included by reference when `includePending` is true (this member's own
    /// Updates are left out: the path replaces them). `self` only advances its message-key ratchet; the new epoch is in
    /// ``PendingCommit/newState``.
    public mutating func commit(adding keyPackages: [KeyPackage] = [], removing removed: [LeafIndex] = [], includePending: Bool = true,
                                includePath: Bool = true, wireFormat: WireFormat = .publicMessage, authenticatedData: [UInt8] = [],
                                ratchetTreeInWelcome: Bool = true) throws -> PendingCommit {
        try commit(proposals: removed.map { .remove($0) } + keyPackages.map { .add($0) }, includePending: includePending, includePath: includePath,
                   wireFormat: wireFormat, authenticatedData: authenticatedData, ratchetTreeInWelcome: ratchetTreeInWelcome)
    }

    /// Builds, signs and protects a commit of `byValue` proposals (and the pending ones when `includePending` is true).
    ///
    /// A pending ReInit is committed only when it would be the only proposal (RFC 9420 §12.1.5: other proposals win).
    /// `extraPSKs` enter the key schedule and the Welcome without a proposal (the `reinit` or `branch` PSK that links a new
    /// group to its origin, §11.2–11.3).
    mutating func buildCommit(byValue proposals: [Proposal], includePending: Bool, includePath: Bool, wireFormat: WireFormat,
                              authenticatedData: [UInt8], ratchetTreeInWelcome: Bool, extraPSKs: [PreSharedKeyID] = []) throws -> PendingCommit {
        guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
        guard wireFormat == .publicMessage || wireFormat == .privateMessage else { throw MLSFramingError.contentTypeNotAllowed }
        let me = Sender.member(ownLeaf)
        var resolved = ResolvedProposals()
        var items: [ProposalOrRef] = []
        if includePending {
            let candidates = pendingProposals.filter { !($0.sender == me && $0.proposal.type == .update) }
            let others = candidates.filter { $0.proposal.type != .reinit }
            let chosen = others.isEmpty && proposals.isEmpty ? Array(candidates.prefix(1)) : others
            for pending in chosen {
                try resolved.add(pending.proposal, sender: pending.sender, committer: me)
                items.append(.reference(pending.reference))
            }
        }
        for proposal in proposals {
            try resolved.add(proposal, sender: me, committer: me)
            items.append(.proposal(proposal))
        }
        try resolved.checkReInitAlone()
        if let reinit = resolved.reinit { try checkReInit(reinit) }
        if resolved.externalInit != nil { throw MLSGroupError.invalidProposalList("ExternalInit in a member commit") }

        guard let applied = try applyProposals(resolved) else {
            throw MLSGroupError.invalidProposalList("a member cannot commit its own removal")
        }
        var newTree = applied.tree
        let newExtensions = applied.extensions
        let joiners = applied.joiners
        let pskIDs = resolved.psks + extraPSKs
        let pskSecret = try PreSharedKey.pskSecret(suite: suite, psks: psks.resolve(pskIDs))

        var provisional = context
        provisional.epoch += 1
        provisional.extensions = newExtensions
        var newKeys = privateKeys
        var commitSecret = suite.zeroSecret
        var path: UpdatePath? = nil
        var pathSecrets: [NodeIndex: [UInt8]] = [:]
        if includePath || resolved.pathRequired {
            guard let ownLeafNode = newTree.leaf(ownLeaf) else { throw MLSTreeError.blankLeaf(ownLeaf) }
            let base = provisional
            let created = try TreeKEM.create(for: ownLeaf, leaf: ownLeafNode, signaturePrivateKey: signaturePrivateKey, tree: &newTree,
                                             suite: suite, groupID: context.groupID, excluding: Set(joiners.map(\.leaf))) { treeHash in
                var context = base
                context.treeHash = treeHash
                return context.tlsEncoded
            }
            path = created.path
            newKeys = created.privateKeys
            commitSecret = created.commitSecret
            pathSecrets = created.pathSecrets
        } else {
            newKeys.prune(to: newTree)
        }
        provisional.treeHash = newTree.rootTreeHash(suite: suite)

        let commit = Commit(proposals: items, path: path)
        let framed = FramedContent(groupID: context.groupID, epoch: context.epoch, sender: me, authenticatedData: authenticatedData,
                                   body: .commit(commit))
        var content = try AuthenticatedContent.sign(wireFormat: wireFormat, content: framed, context: context, suite: suite,
                                                    signaturePrivateKey: signaturePrivateKey)
        var newContext = provisional
        newContext.confirmedTranscriptHash = TranscriptHashes.confirmed(suite: suite, interimBefore: interimTranscriptHash, content: content)
        let newSecrets = try EpochSecrets(suite: suite, initSecret: secrets.initSecret, commitSecret: commitSecret, pskSecret: pskSecret,
                                          context: newContext)
        let tag = newSecrets.confirmationTag(confirmedTranscriptHash: newContext.confirmedTranscriptHash)
        content.auth.confirmationTag = tag

        let message: MLSMessage
        if wireFormat == .privateMessage {
            message = MLSMessage(body: .privateMessage(try PrivateMessageProtection.encrypt(content, suite: suite, secretTree: &secretTree,
                                                                                             senderDataSecret: secrets.senderDataSecret)))
        } else {
            message = MLSMessage(body: .publicMessage(try PublicMessageProtection.protect(content, suite: suite, membershipKey: secrets.membershipKey,
                                                                                           context: context)))
        }

        var next = self
        next.enter(context: newContext, tree: newTree, keys: newKeys, secrets: newSecrets, confirmationTag: tag)
        next.reinitialization = resolved.reinit

        var welcome: Welcome? = nil
        if !joiners.isEmpty {
            var groupInfo = GroupInfo(groupContext: newContext,
                                      extensions: ratchetTreeInWelcome ? [Extension(type: .ratchetTree, data: newTree.tlsEncoded)] : [],
                                      confirmationTag: tag, signer: ownLeaf, signature: [])
            try groupInfo.sign(suite: suite, signaturePrivateKey: signaturePrivateKey)
            let recipients = joiners.map { joiner -> (keyPackage: KeyPackage, secrets: GroupSecrets) in
                let ancestor = newTree.math.commonAncestor(ownLeaf.nodeIndex, joiner.leaf.nodeIndex)
                return (joiner.keyPackage, GroupSecrets(joinerSecret: newSecrets.joinerSecret, pathSecret: pathSecrets[ancestor], psks: pskIDs))
            }
            welcome = try Welcome.seal(suite: suite, groupInfo: groupInfo, joinerSecret: newSecrets.joinerSecret, pskSecret: pskSecret,
                                       recipients: recipients)
        }
        return PendingCommit(message: message, welcome: welcome, newState: next)
    }
}
