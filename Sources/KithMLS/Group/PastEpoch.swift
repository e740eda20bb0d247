/// What a member keeps of an earlier epoch to decrypt late application messages (RFC 9420 §15, §16.10 deletion caveats).
///
/// Of that epoch's tree only each member's signature key and credential are kept: a late message needs nothing else,
/// and a full tree per retained epoch would multiply the stored state.
struct PastEpoch: Sendable {
    /// The GroupContext of that epoch (signatures cover it).
    var context: GroupContext
    /// The members of that epoch, by leaf: who could send, with which key.
    var senders: [UInt32: PastSender]
    /// The remaining message keys of that epoch.
    var secretTree: SecretTree
    /// The sender-data secret of that epoch.
    var senderDataSecret: [UInt8]

    /// Keeps what late messages of the epoch of `context` and `tree` need.
    init(context: GroupContext, tree: RatchetTree, secretTree: SecretTree, senderDataSecret: [UInt8]) {
        var senders: [UInt32: PastSender] = [:]
        for leaf in tree.occupiedLeaves {
            if let node = tree.leaf(leaf) { senders[leaf.value] = PastSender(signatureKey: node.signatureKey, credential: node.credential) }
        }
        self.init(context: context, senders: senders, secretTree: secretTree, senderDataSecret: senderDataSecret)
    }

    /// Assembles a past epoch (restoring a serialized state).
    init(context: GroupContext, senders: [UInt32: PastSender], secretTree: SecretTree, senderDataSecret: [UInt8]) {
        self.context = context
        self.senders = senders
        self.secretTree = secretTree
        self.senderDataSecret = senderDataSecret
    }
}

/// A member of a past epoch: its signature key and credential.
struct PastSender: Sendable, Hashable {
    /// The leaf's signature public key.
    var signatureKey: [UInt8]
    /// The leaf's credential.
    var credential: Credential
}
