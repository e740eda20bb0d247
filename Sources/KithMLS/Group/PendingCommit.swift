/// A commit created by this member, with the state to adopt once the delivery service accepts it.
public struct PendingCommit: Sendable {
    /// The commit message to send to the group.
    public var message: MLSMessage
    /// The Welcome for added members, if any.
    public var welcome: Welcome?
    /// The group state of the new epoch.
    public var newState: GroupState
}
