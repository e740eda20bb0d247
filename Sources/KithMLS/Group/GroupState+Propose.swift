/// Sending proposals (RFC 9420 §12.1).
extension GroupState {
    /// Frames, signs and protects `proposal` from this member and records it as pending.
    ///
    /// Add, Remove, PreSharedKey, ReInit and GroupContextExtensions can be proposed here; use ``proposeUpdate(wireFormat:authenticatedData:)``
    /// for Updates.
    public mutating func propose(_ proposal: Proposal, wireFormat: WireFormat = .publicMessage, authenticatedData: [UInt8] = []) throws -> MLSMessage {
        switch proposal {
        case .add(let keyPackage): try validateKeyPackage(keyPackage, in: tree)
        case .remove(let leaf):
            guard tree.leaf(leaf) != nil else { throw MLSGroupError.invalidProposalList("Remove of a blank leaf") }
        case .preSharedKey(let id): _ = try psks.resolve([id])
        case .groupContextExtensions: break
        case .update: throw MLSGroupError.invalidProposalList("use proposeUpdate for Update proposals")
        case .reinit(let body): try checkReInit(body)
        case .externalInit: throw MLSGroupError.invalidProposalList("ExternalInit is only sent by external joiners")
        }
        return try send(proposal, wireFormat: wireFormat, authenticatedData: authenticatedData)
    }

    /// Proposes replacing this member's leaf with one holding a fresh HPKE key.
    public mutating func proposeUpdate(wireFormat: WireFormat = .publicMessage, authenticatedData: [UInt8] = []) throws -> MLSMessage {
        guard var leaf = tree.leaf(ownLeaf) else { throw MLSTreeError.blankLeaf(ownLeaf) }
        let keys = suite.kem.generateKeyPair()
        leaf.encryptionKey = keys.publicKey
        leaf.source = .update
        try leaf.sign(suite: suite, signaturePrivateKey: signaturePrivateKey, groupID: context.groupID, leafIndex: ownLeaf)
        let message = try send(.update(leaf), wireFormat: wireFormat, authenticatedData: authenticatedData)
        pendingUpdateKeys[keys.publicKey] = keys
        return message
    }

    private mutating func send(_ proposal: Proposal, wireFormat: WireFormat, authenticatedData: [UInt8]) throws -> MLSMessage {
        guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
        let framed = FramedContent(groupID: context.groupID, epoch: context.epoch, sender: .member(ownLeaf), authenticatedData: authenticatedData,
                                   body: .proposal(proposal))
        let content = try AuthenticatedContent.sign(wireFormat: wireFormat, content: framed, context: context, suite: suite,
                                                    signaturePrivateKey: signaturePrivateKey)
        let message: MLSMessage
        switch wireFormat {
        case .privateMessage:
            message = MLSMessage(body: .privateMessage(try PrivateMessageProtection.encrypt(content, suite: suite, secretTree: &secretTree,
                                                                                             senderDataSecret: secrets.senderDataSecret)))
        case .publicMessage:
            message = MLSMessage(body: .publicMessage(try PublicMessageProtection.protect(content, suite: suite, membershipKey: secrets.membershipKey,
                                                                                           context: context)))
        default:
            throw MLSFramingError.contentTypeNotAllowed
        }
        let reference = Proposal.reference(suite: suite, authenticatedContent: content.tlsEncoded)
        pendingProposals.append(PendingProposal(reference: reference, proposal: proposal, sender: .member(ownLeaf)))
        return message
    }
}
