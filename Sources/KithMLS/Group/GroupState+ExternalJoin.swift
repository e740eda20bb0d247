/// The identity a client brings to an external join.
public struct ExternalJoinIdentity: Sendable {
    /// The credential for the new leaf.
    public var credential: Credential
    /// The signature key pair of the new leaf.
    public var signatureKeys: KeyPair
    /// The capabilities of the new leaf; defaults to the group's suite and the credential's type.
    public var capabilities: Capabilities?

    /// Bundles the identity.
    public init(credential: Credential, signatureKeys: KeyPair, capabilities: Capabilities? = nil) {
        self.credential = credential
        self.signatureKeys = signatureKeys
        self.capabilities = capabilities
    }
}

/// Joining a group with an external commit (RFC 9420 §12.4.3.2, §8.3).
extension GroupState {
    /// Creates an external commit joining the group described by `groupInfo`.
    ///
    /// - Parameters:
    ///   - ratchetTree: the tree when the GroupInfo has no `ratchet_tree` extension.
    /// - Returns: the commit (a PublicMessage with sender `new_member_commit`) and the joiner's state in the new epoch.
    public static func joinExternally(groupInfo: GroupInfo, ratchetTree: RatchetTree? = nil, identity: ExternalJoinIdentity,
                                      authenticatedData: [UInt8] = [], configuration: GroupConfiguration) throws -> (message: MLSMessage, state: GroupState) {
        let suite = try CipherSuite(groupInfo.groupContext.cipherSuite)
        let context = groupInfo.groupContext
        let tree = try GroupState.verifiedTree(of: groupInfo, outOfBand: ratchetTree, suite: suite)
        guard let externalPubData = groupInfo.extensions.data(of: .externalPub) else {
            throw MLSGroupError.invalidProposalList("GroupInfo has no external_pub extension")
        }
        var reader = TLSReader(externalPubData)
        let externalPub = try reader.readOpaque()
        try reader.expectEnd()

        let exported = try suite.kem.exportSender(publicKey: externalPub, kdf: suite.hash, aead: suite.aead, info: [],
                                                  exporterContext: externalInitLabel, length: suite.secretSize)
        let capabilities = identity.capabilities ?? Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [],
                                                                 credentials: [identity.credential.type])
        let template = LeafNode(encryptionKey: [], signatureKey: identity.signatureKeys.publicKey, credential: identity.credential,
                                capabilities: capabilities, source: .update, extensions: [], signature: [])
        var newTree = tree
        let ownLeaf = try newTree.addLeaf(template)
        var provisional = context
        provisional.epoch += 1
        let base = provisional
        let created = try TreeKEM.create(for: ownLeaf, leaf: template, signaturePrivateKey: identity.signatureKeys.privateKey, tree: &newTree,
                                         suite: suite, groupID: context.groupID, excluding: []) { treeHash in
            var context = base
            context.treeHash = treeHash
            return context.tlsEncoded
        }
        provisional.treeHash = newTree.rootTreeHash(suite: suite)

        let commit = Commit(proposals: [.proposal(.externalInit(kemOutput: exported.kemOutput))], path: created.path)
        let framed = FramedContent(groupID: context.groupID, epoch: context.epoch, sender: .newMemberCommit, authenticatedData: authenticatedData,
                                   body: .commit(commit))
        var content = try AuthenticatedContent.sign(wireFormat: .publicMessage, content: framed, context: context, suite: suite,
                                                    signaturePrivateKey: identity.signatureKeys.privateKey)
        let interim = TranscriptHashes.interim(suite: suite, confirmed: context.confirmedTranscriptHash, confirmationTag: groupInfo.confirmationTag)
        var newContext = provisional
        newContext.confirmedTranscriptHash = TranscriptHashes.confirmed(suite: suite, interimBefore: interim, content: content)
        let newSecrets = try EpochSecrets(suite: suite, initSecret: exported.secret, commitSecret: created.commitSecret, pskSecret: suite.zeroSecret,
                                          context: newContext)
        let tag = newSecrets.confirmationTag(confirmedTranscriptHash: newContext.confirmedTranscriptHash)
        content.auth.confirmationTag = tag
        let message = MLSMessage(body: .publicMessage(PublicMessage(content: content.content, auth: content.auth, membershipTag: nil)))

        var state = GroupState(suite: suite, context: newContext, tree: newTree, privateKeys: created.privateKeys,
                               signaturePrivateKey: identity.signatureKeys.privateKey, secrets: newSecrets, configuration: configuration)
        state.enter(context: newContext, tree: newTree, keys: created.privateKeys, secrets: newSecrets, confirmationTag: tag)
        return (message, state)
    }
}
