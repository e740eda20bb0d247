/// One-to-one messages through a Double Ratchet session per contact, and the one-time prekeys that start them.
extension Account {
    /// One-to-one messages through a Double Ratchet session per contact, and the one-time prekeys that start them.
    public struct Direct: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// One-to-one messages through a Double Ratchet session per contact, and the one-time prekeys that start them.
    public var direct: Direct { Direct(account: self) }
}
