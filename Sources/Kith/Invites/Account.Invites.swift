/// Invites to a group, for contacts and for strangers: creating, inspecting, accepting and answering them.
extension Account {
    /// Invites to a group, for contacts and for strangers: creating, inspecting, accepting and answering them.
    public struct Invites: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Invites to a group, for contacts and for strangers: creating, inspecting, accepting and answering them.
    public var invites: Invites { Invites(account: self) }
}
