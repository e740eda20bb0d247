/// The complete state of one member in one epoch (RFC 9420 §8, §12).
///
/// A value type: processing a message works on a copy and the caller's state is replaced only when processing succeeds,
/// so a rejected commit never changes the group.
public struct GroupState: Sendable {
    /// The group's cipher suite.
    public let suite: CipherSuite
    /// The agreed GroupContext of the current epoch.
    public internal(set) var context: GroupContext
    /// The ratchet tree.
    public internal(set) var tree: RatchetTree
    /// This member's private keys in the tree.
    public internal(set) var privateKeys: TreePrivateKeys
    /// This member's signature private key.
    let signaturePrivateKey: [UInt8]
    /// The key schedule outputs of the current epoch.
    public internal(set) var secrets: EpochSecrets
    /// The interim transcript hash of the current epoch.
    public internal(set) var interimTranscriptHash: [UInt8]
    /// The confirmation tag that confirmed the current epoch.
    public internal(set) var confirmationTag: [UInt8]
    /// The message keys of the current epoch.
    public internal(set) var secretTree: SecretTree
    /// PSKs available to this member, including past resumption PSKs of this group.
    public internal(set) var psks: PSKStore
    /// Proposals received or sent in this epoch, in arrival order.
    public internal(set) var pendingProposals: [PendingProposal]
    /// Message keys of recent past epochs, oldest first (see ``GroupConfiguration/pastEpochsForApplicationMessages``).
    var pastEpochs: [PastEpoch] = []
    /// The ReInit committed in this epoch, if any: the group is then closed and continues as the group it describes.
    public internal(set) var reinitialization: ReInit? = nil
    /// Leaf key pairs of this member's own Update proposals, by public key, until a commit applies one.
    var pendingUpdateKeys: [[UInt8]: KeyPair] = [:]
    /// Application policies.
    public let configuration: GroupConfiguration

    /// Assembles a state; ``enter(context:tree:keys:secrets:confirmationTag:)`` completes the epoch-derived fields.
    init(suite: CipherSuite, context: GroupContext, tree: RatchetTree, privateKeys: TreePrivateKeys, signaturePrivateKey: [UInt8],
         secrets: EpochSecrets, configuration: GroupConfiguration) {
        self.suite = suite
        self.context = context
        self.tree = tree
        self.privateKeys = privateKeys
        self.signaturePrivateKey = signaturePrivateKey
        self.secrets = secrets
        self.interimTranscriptHash = []
        self.confirmationTag = []
        self.secretTree = SecretTree(suite: suite, encryptionSecret: secrets.encryptionSecret, math: tree.math)
        self.psks = PSKStore()
        self.pendingProposals = []
        self.configuration = configuration
    }

    /// This member's leaf.
    public var ownLeaf: LeafIndex { privateKeys.leaf }
    /// The current epoch number.
    public var epoch: UInt64 { context.epoch }
    /// The epoch authenticator of the current epoch.
    public var epochAuthenticator: [UInt8] { secrets.epochAuthenticator }

    /// Records this epoch's resumption PSK, keeping only the configured number of epochs.
    mutating func rememberResumptionPSK() {
        var byEpoch = psks.resumption[context.groupID] ?? [:]
        byEpoch[context.epoch] = secrets.resumptionPSK
        while byEpoch.count > max(1, configuration.resumptionPSKEpochs), let oldest = byEpoch.keys.min() { byEpoch.removeValue(forKey: oldest) }
        psks.resumption[context.groupID] = byEpoch
    }
}
