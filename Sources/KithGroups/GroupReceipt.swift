import KithIdentity

/// What one incoming group message did to this member's state.
public enum GroupReceipt: Sendable, Equatable {
    /// Application content (the canonical content JSON bytes) from a member.
    case content([UInt8], sender: FeedID)
    /// A proposal, kept for the committer's next commit.
    case proposal(from: FeedID)
    /// A commit moved the group to a new epoch.
    case newEpoch(GroupEpochChange)
    /// A commit removed this member: the state must be discarded.
    case removed(by: FeedID)
}

/// A commit's effect on the group.
public struct GroupEpochChange: Sendable, Equatable {
    /// The new epoch.
    public let epoch: UInt64
    /// Who committed.
    public let committer: FeedID
    /// Feeds that joined.
    public let added: [FeedID]
    /// Feeds that left or were removed.
    public let removed: [FeedID]

    /// The routing hint matching the change.
    public var kind: GroupEventKind {
        if !added.isEmpty { return .addMember }
        if !removed.isEmpty { return .removeMember }
        return .updateKey
    }

    /// Creates a change record.
    public init(epoch: UInt64, committer: FeedID, added: [FeedID], removed: [FeedID]) {
        self.epoch = epoch
        self.committer = committer
        self.added = added
        self.removed = removed
    }
}
