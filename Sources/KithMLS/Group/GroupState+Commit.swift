import KithCanonical

/// Applying a received Commit (RFC 9420 §12.4.2), from a member or from an external joiner (§12.4.3.2).
extension GroupState {
    /// The exporter label deriving an external commit's `init_secret` (RFC 9420 §8.3).
    static let externalInitLabel = Array("MLS 1.0 external init secret".utf8)

    /// Resolves, validates and applies `commit`, advancing to the next epoch. Works on `self`; the caller discards it on error.
    mutating func applyCommit(_ commit: Commit, content: AuthenticatedContent) throws -> ReceivedMessage {
        let committer = content.content.sender
        let isExternal: Bool
        switch committer {
        case .member(let leaf):
            guard leaf != ownLeaf else { throw MLSGroupError.invalidSender("cannot process own commit as a receiver") }
            isExternal = false
        case .newMemberCommit:
            isExternal = true
        default:
            throw MLSGroupError.invalidSender("commits come from members or new members")
        }
        guard let confirmationTag = content.auth.confirmationTag else { throw MLSFramingError.confirmationTagMismatch }

        let proposals = try resolve(commit, committer: committer, external: isExternal)
        if proposals.pathRequired && commit.path == nil { throw MLSGroupError.pathRequired }

        guard let applied = try applyProposals(proposals) else { return .removedFromGroup }
        var newTree = applied.tree
        let newExtensions = applied.extensions
        let joiners = Set(applied.joiners.map(\.leaf))

        var newKeys = privateKeys
        if let ownUpdate = proposals.updates.first(where: { $0.leaf == ownLeaf }) {
            guard let pair = pendingUpdateKeys[ownUpdate.node.encryptionKey] else { throw MLSGroupError.invalidProposalList("Update of own leaf that this member did not send") }
            newKeys.setKeyPair(pair, for: ownLeaf.nodeIndex)
        }
        newKeys.prune(to: newTree)
        var commitSecret = suite.zeroSecret
        var provisional = context
        provisional.epoch = context.epoch + 1
        provisional.extensions = newExtensions
        if let path = commit.path {
            let committerLeaf: LeafIndex
            switch committer {
            case .member(let leaf):
                committerLeaf = leaf
                try validateCommitPathLeaf(path.leafNode, at: leaf, in: newTree, extensions: newExtensions)
            default:
                try validateCommitPathLeaf(path.leafNode, at: nil, in: newTree, extensions: newExtensions)
                committerLeaf = try newTree.addLeaf(path.leafNode)
            }
            try TreeKEM.merge(path, from: committerLeaf, into: &newTree, suite: suite, groupID: context.groupID)
            provisional.treeHash = newTree.rootTreeHash(suite: suite)
            let processed = try TreeKEM.decrypt(path, from: committerLeaf, tree: newTree, context: provisional.tlsEncoded, excluding: joiners,
                                                keys: &newKeys, suite: suite)
            commitSecret = processed.commitSecret
        } else {
            provisional.treeHash = newTree.rootTreeHash(suite: suite)
        }

        var initSecret = secrets.initSecret
        if let kemOutput = proposals.externalInit {
            let external = try secrets.externalKeyPair()
            initSecret = try suite.kem.exportReceiver(privateKey: external.privateKey, kemOutput: kemOutput, kdf: suite.hash, aead: suite.aead,
                                                      info: [], exporterContext: Self.externalInitLabel, length: suite.secretSize)
        }
        var newContext = provisional
        newContext.confirmedTranscriptHash = TranscriptHashes.confirmed(suite: suite, interimBefore: interimTranscriptHash, content: content)
        let pskSecret = try PreSharedKey.pskSecret(suite: suite, psks: psks.resolve(proposals.psks))
        let newSecrets = try EpochSecrets(suite: suite, initSecret: initSecret, commitSecret: commitSecret, pskSecret: pskSecret, context: newContext)
        guard ConstantTime.equals(newSecrets.confirmationTag(confirmedTranscriptHash: newContext.confirmedTranscriptHash), confirmationTag) else {
            throw MLSGroupError.confirmationTagMismatch
        }
        enter(context: newContext, tree: newTree, keys: newKeys, secrets: newSecrets, confirmationTag: confirmationTag)
        reinitialization = proposals.reinit
        return .newEpoch(newContext.epoch)
    }

    /// Resolves a commit's proposals (by value and by reference) and checks the rules for its kind of committer.
    private func resolve(_ commit: Commit, committer: Sender, external: Bool) throws -> ResolvedProposals {
        var proposals = ResolvedProposals()
        for item in commit.proposals {
            switch item {
            case .proposal(let proposal): try proposals.add(proposal, sender: committer, committer: committer)
            case .reference(let reference):
                guard !external else { throw MLSGroupError.invalidProposalList("external commit with a proposal by reference") }
                guard let pending = pendingProposals.first(where: { $0.reference == reference }) else { throw MLSGroupError.unknownProposalReference }
                try proposals.add(pending.proposal, sender: pending.sender, committer: committer)
            }
        }
        try proposals.checkReInitAlone()
        if let reinit = proposals.reinit { try checkReInit(reinit) }
        if external {
            guard proposals.externalInit != nil else { throw MLSGroupError.invalidProposalList("external commit without ExternalInit") }
            guard proposals.adds.isEmpty, proposals.updates.isEmpty, proposals.groupContextExtensions == nil, proposals.removes.count <= 1 else {
                throw MLSGroupError.invalidProposalList("external commit may only carry ExternalInit, one Remove and PSKs")
            }
            guard commit.path != nil else { throw MLSGroupError.pathRequired }
        } else if proposals.externalInit != nil {
            throw MLSGroupError.invalidProposalList("ExternalInit in a member commit")
        }
        return proposals
    }

    /// Moves to a new epoch (shared by receiving and sending commits).
    mutating func enter(context newContext: GroupContext, tree newTree: RatchetTree, keys: TreePrivateKeys, secrets newSecrets: EpochSecrets,
                        confirmationTag tag: [UInt8]) {
        let keep = configuration.pastEpochsForApplicationMessages
        // A state assembled by an external join has no previous epoch yet (empty interim transcript hash).
        if keep > 0, !interimTranscriptHash.isEmpty {
            pastEpochs.append(PastEpoch(context: context, tree: tree, secretTree: secretTree, senderDataSecret: secrets.senderDataSecret))
        }
        if pastEpochs.count > keep { pastEpochs.removeFirst(pastEpochs.count - keep) }
        context = newContext
        tree = newTree
        privateKeys = keys
        secrets = newSecrets
        confirmationTag = tag
        interimTranscriptHash = TranscriptHashes.interim(suite: suite, confirmed: newContext.confirmedTranscriptHash, confirmationTag: tag)
        secretTree = SecretTree(suite: suite, encryptionSecret: newSecrets.encryptionSecret, math: newTree.math)
        pendingProposals = []
        pendingUpdateKeys = [:]
        rememberResumptionPSK()
    }
}
