/// MLS group conversations: creating, adding and removing members, sending, reading, leaving and exploding.
extension Account {
    /// MLS group conversations: creating, adding and removing members, sending, reading, leaving and exploding.
    public struct Groups: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// MLS group conversations: creating, adding and removing members, sending, reading, leaving and exploding.
    public var groups: Groups { Groups(account: self) }
}
