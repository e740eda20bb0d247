import KithGroups

/// How an invite exchange ended for the joiner (``Account/Invites/joinAsStranger(_:over:initiator:deadline:)``).
public enum StrangerJoinOutcome: Sendable, Equatable {
    /// The creator added this identity; it joined the group from the Welcome.
    case joined(GroupID)
    /// The creator refused: one of the `invite_join_error` kinds and the creator's reason (untrusted text: sanitize
    /// before display).
    case refused(error: String, reason: String)
}
