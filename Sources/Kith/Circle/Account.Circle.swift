/// The inner circle: one-time messages to a key of a pool the contact handed over in person, and relayed ones.
extension Account {
    /// The inner circle: one-time messages to a key of a pool the contact handed over in person, and relayed ones.
    public struct Circle: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// The inner circle: one-time messages to a key of a pool the contact handed over in person, and relayed ones.
    public var circle: Circle { Circle(account: self) }
}
