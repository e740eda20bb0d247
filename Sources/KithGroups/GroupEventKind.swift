/// The `event` routing hint of a `group_event` (spec 5.6), derived from what the MLS message does.
public enum GroupEventKind: String, Sendable, Hashable, CaseIterable {
    /// The group was created (not sent: a group exists for others once its first Welcome arrives).
    case create
    /// A commit that adds members, or a Welcome.
    case addMember = "add_member"
    /// A commit that removes members (including a member's own departure).
    case removeMember = "remove_member"
    /// A commit or proposal that refreshes keys or settings only.
    case updateKey = "update_key"
}
