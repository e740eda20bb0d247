/// Push notifications: this device's registration, and the whitelist tokens handed to and taken from contacts.
extension Account {
    /// Push notifications: this device's registration, and the whitelist tokens handed to and taken from contacts.
    public struct Push: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Push notifications: this device's registration, and the whitelist tokens handed to and taken from contacts.
    public var push: Push { Push(account: self) }
}
