import KithIdentity
import KithMLS

/// What a membership operation produced: the handshake message to publish in the author's feed as a `group_event`,
/// and, when members join, the Welcome to send each of them as a direct message.
public struct GroupHandshake: Sendable {
    /// The commit or proposal (an MLS PrivateMessage).
    public let message: MLSMessage
    /// The routing hint of the `group_event`.
    public let kind: GroupEventKind
    /// The Welcome for the feeds that join, when any do.
    public let welcome: Welcome?
    /// The feeds the Welcome is for.
    public let joiners: [FeedID]
    /// Each joiner's KeyPackageRef, naming its entry in the Welcome.
    public let joinerReferences: [FeedID: [UInt8]]
    /// True for a commit (the epoch advanced), false for a proposal.
    public let isCommit: Bool
    /// The new epoch's ratchet tree (TLS-encoded) when it was too large for the Welcome: the joiners need it out of
    /// band (``GroupWireMessage/maxInBandTreeBytes``). Nil when the Welcome carries it, or nobody joins.
    public let ratchetTree: [UInt8]?

    /// Creates a handshake record.
    public init(
        message: MLSMessage, kind: GroupEventKind, welcome: Welcome?, joiners: [FeedID], joinerReferences: [FeedID: [UInt8]] = [:], isCommit: Bool,
        ratchetTree: [UInt8]? = nil
    ) {
        self.message = message
        self.kind = kind
        self.welcome = welcome
        self.joiners = joiners
        self.joinerReferences = joinerReferences
        self.isCommit = isCommit
        self.ratchetTree = ratchetTree
    }

    /// The Welcome for one joiner: only its own encrypted group secrets (every joiner needs only its entry), which
    /// keeps each direct message small in a big add.
    public func welcome(for joiner: FeedID) -> Welcome? {
        guard let welcome, let reference = joinerReferences[joiner] else { return nil }
        return Welcome(cipherSuite: welcome.cipherSuite, secrets: welcome.secrets.filter { $0.newMember == reference },
                       encryptedGroupInfo: welcome.encryptedGroupInfo)
    }
}
