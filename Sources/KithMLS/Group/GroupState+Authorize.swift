/// Handling incoming messages under an application's own policy (who may commit, who may propose what).
extension GroupState {
    /// Decrypts and authenticates `message`, lets `authorize` judge its sender and body against the current tree, and only
    /// then processes it.
    ///
    /// `authorize` sees the message after its signature has been verified and before anything is stored or applied: a
    /// proposal it rejects is never pending, a commit it rejects never advances the epoch. Whatever it throws is rethrown
    /// and, like any other failure, leaves the state unchanged (a rejected application message does consume its message
    /// key, as a replayed one would fail anyway).
    ///
    /// `senderCredential` is the credential of a member sender in the message's own epoch (a late application message
    /// of a retained past epoch is judged by who held that leaf then), nil for other senders.
    @discardableResult
    public mutating func handle(
        _ message: MLSMessage, authorize: (_ sender: Sender, _ body: FramedContentBody, _ senderCredential: Credential?) throws -> Void
    ) throws -> ReceivedMessage {
        var work = self
        let content = try work.unprotect(message)
        var credential: Credential?
        if case .member(let leaf) = content.content.sender {
            if content.content.epoch == work.context.epoch {
                credential = work.tree.leaf(leaf)?.credential
            } else {
                credential = work.pastEpochs.first { $0.context.epoch == content.content.epoch }?.senders[leaf.value]?.credential
            }
        }
        try authorize(content.content.sender, content.content.body, credential)
        let result = try work.process(content)
        if result != .removedFromGroup { self = work }
        return result
    }

    /// The members' leaves, in leaf order.
    public var memberLeaves: [(leaf: LeafIndex, node: LeafNode)] {
        tree.occupiedLeaves.compactMap { index in tree.leaf(index).map { (index, $0) } }
    }
}
