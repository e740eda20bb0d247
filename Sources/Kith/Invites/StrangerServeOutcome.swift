import KithIdentity
import KithGroups
import KithInvites

/// How one invite exchange with a stranger ended for the creator (``Account/Invites/answerStranger(over:initiator:deadline:)``).
public enum StrangerServeOutcome: Sendable, Equatable {
    /// The requester passed every check and was added with one commit; its Welcome went back over the link.
    case admitted(group: GroupID, member: FeedID)
    /// The request was refused (and answered when the refusal says so).
    case refused(InviteJoinRefusal)
    /// Too many exchanges run or started lately: the connection was closed before any cryptography.
    case busy
}
