/// One thing a restored identity still has to re-establish (docs/CONTINUITY.md section 8), a row of
/// `reestablish_tasks`.
public struct ReestablishTask: Sendable, Equatable {
    /// What the task sends.
    public enum Kind: String, Sendable, Equatable {
        /// A fresh prekey batch (with `pool_reset`) to one contact.
        case prekeys
        /// Readmission requests for one group, to its members.
        case readmission
    }

    /// Where the task stands.
    public enum State: String, Sendable, Equatable {
        /// Not sent yet.
        case pending
        /// Readmission asked; waiting for a member's Welcome.
        case requested
        /// Finished.
        case done
    }

    /// What the task sends.
    public let kind: Kind
    /// The contact's feed id (`prekeys`) or the group id (`readmission`).
    public let target: String
    /// For `readmission`: the group's members as the backup knew them.
    public let members: [String]
    /// Where it stands.
    public let state: State
    /// For `readmission`: the group's committer as the backup knew it (nil when the backup did not say).
    public let committer: String?

    /// Creates a task.
    public init(kind: Kind, target: String, members: [String], state: State, committer: String? = nil) {
        self.kind = kind
        self.target = target
        self.members = members
        self.state = state
        self.committer = committer
    }
}
