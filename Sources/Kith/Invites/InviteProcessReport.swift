import KithFeed
import KithGroups
import KithIdentity
import KithInvites

/// What one pass over invite messages did (``Account/Invites/process()``).
public struct InviteProcessReport: Sendable, Equatable {
    /// Join requests accepted: the requester added to the group (one commit each).
    public var admitted: [Admission] = []
    /// Join requests refused, with the reason (`InviteJoinRefusal.replyKind` (KithInvites) says whether the requester heard).
    public var refused: [(message: String, requester: String, refusal: InviteJoinRefusal)] = []
    /// Join errors received for requests this identity sent: (creator, tag, error kind).
    public var joinErrors: [(creator: FeedID, tag: String, error: String)] = []

    /// One admission.
    public struct Admission: Sendable, Equatable {
        /// The group joined.
        public let group: GroupID
        /// Who joined.
        public let member: FeedID
    }

    /// An empty report.
    public init() {}

    public static func == (lhs: InviteProcessReport, rhs: InviteProcessReport) -> Bool {
        lhs.admitted == rhs.admitted
            && lhs.refused.map { "\($0.message)|\($0.requester)|\($0.refusal)" } == rhs.refused.map { "\($0.message)|\($0.requester)|\($0.refusal)" }
            && lhs.joinErrors.map { "\($0.creator)|\($0.tag)|\($0.error)" } == rhs.joinErrors.map { "\($0.creator)|\($0.tag)|\($0.error)" }
    }
}
