import KithFeed
import KithGroups
import KithIdentity
import KithStore

/// A group as the facade shows it.
public struct GroupSummary: Sendable, Equatable {
    /// The group.
    public let id: GroupID
    /// Its local name.
    public let name: String?
    /// The current epoch.
    public let epoch: UInt64
    /// Where this identity's membership stands.
    public let status: GroupRecord.Status
    /// The members (empty once the membership ended).
    public let members: [FeedID]
    /// The feed that commits (docs/GROUPS.md, "One history").
    public let committer: FeedID?
    /// When the conversation explodes (Unix seconds), if it does.
    public let explodeAt: Int64?
    /// True when this identity is the committer.
    public let isCommitter: Bool
    /// The conversation metadata (invite tag, member profiles, explosion time), for one group read with
    /// ``Account/Groups/summary(_:)`` (not in lists).
    public let metadata: ConversationMetadata?

    /// The name a member chose for itself in this group, if any.
    public func profileName(of member: FeedID) -> String? { metadata?.profile(of: member)?.name }
}

/// What one pass over incoming group messages did.
public struct GroupProcessReport: Sendable, Equatable {
    /// Groups joined from Welcomes.
    public var joined: [GroupID] = []
    /// Application messages decrypted and stored.
    public var opened: [MessageID] = []
    /// Commits applied.
    public var commits: Int = 0
    /// Messages held until their epoch is reached.
    public var held: Int = 0
    /// Messages refused for good, with the reason.
    public var refused: [(MessageID, String)] = []
    /// Groups this identity was removed from (or that exploded) in this pass.
    public var ended: [GroupID] = []
    /// Groups whose follow-up (the committer's commit of pending proposals, a member's re-proposal) failed, with why;
    /// tried again on the next pass.
    public var followUpFailures: [(GroupID, String)] = []

    /// An empty report.
    public init() {}

    public static func == (lhs: GroupProcessReport, rhs: GroupProcessReport) -> Bool {
        lhs.joined == rhs.joined && lhs.opened == rhs.opened && lhs.commits == rhs.commits && lhs.held == rhs.held
            && lhs.refused.map(\.0) == rhs.refused.map(\.0) && lhs.ended == rhs.ended
    }
}
