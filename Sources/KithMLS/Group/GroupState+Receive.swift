/// Handling incoming PublicMessages and PrivateMessages (RFC 9420 §6, §12.4.2).
extension GroupState {
    /// Processes one message; on any error the state is left unchanged.
    @discardableResult
    public mutating func handle(_ message: MLSMessage) throws -> ReceivedMessage {
        try handle(message) { _, _, _ in }
    }

    /// Unwraps, decrypts and authenticates a framed message of the current epoch.
    mutating func unprotect(_ message: MLSMessage) throws -> AuthenticatedContent {
        let content: AuthenticatedContent
        switch message.body {
        case .publicMessage(let publicMessage):
            try checkEpoch(groupID: publicMessage.content.groupID, epoch: publicMessage.content.epoch)
            content = try PublicMessageProtection.unprotect(publicMessage, suite: suite, membershipKey: secrets.membershipKey, context: context)
            if case .application = content.content.body { throw MLSFramingError.contentTypeNotAllowed }
        case .privateMessage(let privateMessage):
            if privateMessage.groupID == context.groupID, privateMessage.epoch < context.epoch,
               let index = pastEpochs.firstIndex(where: { $0.context.epoch == privateMessage.epoch }) {
                return try unprotectPast(privateMessage, at: index)
            }
            try checkEpoch(groupID: privateMessage.groupID, epoch: privateMessage.epoch)
            content = try PrivateMessageProtection.decrypt(privateMessage, suite: suite, secretTree: &secretTree,
                                                           senderDataSecret: secrets.senderDataSecret)
        default:
            throw MLSGroupError.unsupported("wire format \(message.body.wireFormat.rawValue) is not a framed message")
        }
        guard let signerKey = try signatureKey(for: content) else { throw MLSGroupError.invalidSender("no signature key") }
        guard content.verifySignature(suite: suite, signerKey: signerKey, context: context) else { throw MLSFramingError.invalidSignature }
        return content
    }

    /// Decrypts a late application message with the keys of a retained past epoch; handshake messages of past epochs are refused.
    private mutating func unprotectPast(_ message: PrivateMessage, at index: Int) throws -> AuthenticatedContent {
        guard message.contentType == .application else { throw MLSGroupError.wrongEpoch(expected: context.epoch, actual: message.epoch) }
        var past = pastEpochs[index]
        let content = try PrivateMessageProtection.decrypt(message, suite: suite, secretTree: &past.secretTree, senderDataSecret: past.senderDataSecret)
        guard case .member(let leaf) = content.content.sender, let sender = past.senders[leaf.value] else { throw MLSFramingError.senderNotMember }
        guard content.verifySignature(suite: suite, signerKey: sender.signatureKey, context: past.context) else { throw MLSFramingError.invalidSignature }
        pastEpochs[index] = past
        return content
    }

    private func checkEpoch(groupID: [UInt8], epoch: UInt64) throws {
        guard groupID == context.groupID else { throw MLSFramingError.wrongGroupOrEpoch }
        guard epoch == context.epoch else { throw MLSGroupError.wrongEpoch(expected: context.epoch, actual: epoch) }
    }

    private func signatureKey(for content: AuthenticatedContent) throws -> [UInt8]? {
        switch content.content.sender {
        case .member(let leaf):
            guard let node = tree.leaf(leaf) else { throw MLSFramingError.unknownSender(leaf) }
            return node.signatureKey
        case .newMemberProposal:
            if case .proposal(.add(let keyPackage)) = content.content.body { return keyPackage.leafNode.signatureKey }
            throw MLSGroupError.invalidSender("new_member_proposal must carry an Add")
        case .newMemberCommit:
            if case .commit(let commit) = content.content.body, let path = commit.path { return path.leafNode.signatureKey }
            throw MLSGroupError.invalidSender("new_member_commit must carry a path")
        case .external(let index):
            guard case .proposal(let proposal) = content.content.body, content.wireFormat == .publicMessage else {
                throw MLSGroupError.invalidSender("external senders may only send proposals as PublicMessages")
            }
            if case .update = proposal { throw MLSGroupError.invalidSender("external senders cannot propose Updates") }
            if case .externalInit = proposal { throw MLSGroupError.invalidSender("external senders cannot propose ExternalInit") }
            guard let data = context.extensions.data(of: .externalSenders) else { throw MLSGroupError.invalidSender("group has no external senders") }
            let senders = try ExternalSender.decodeList(data)
            guard Int(index) < senders.count else { throw MLSGroupError.invalidSender("unknown external sender \(index)") }
            return senders[Int(index)].signatureKey
        }
    }

    /// Acts on authenticated content: delivers application data, stores proposals, applies commits.
    mutating func process(_ content: AuthenticatedContent) throws -> ReceivedMessage {
        switch content.content.body {
        case .application(let data):
            guard case .member(let leaf) = content.content.sender else { throw MLSFramingError.senderNotMember }
            return .application(data: data, sender: leaf)
        case .proposal(let proposal):
            guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
            let reference = Proposal.reference(suite: suite, authenticatedContent: content.tlsEncoded)
            if !pendingProposals.contains(where: { $0.reference == reference }) {
                pendingProposals.append(PendingProposal(reference: reference, proposal: proposal, sender: content.content.sender))
            }
            return .proposal(reference: reference)
        case .commit(let commit):
            guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
            return try applyCommit(commit, content: content)
        }
    }
}
