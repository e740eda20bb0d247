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
    /// True for a commit (the epoch advanced), false for a proposal.
    public let isCommit: Bool
}
