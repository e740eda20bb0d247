/// The people this identity met: cards (full and compact), adding, finding and removing contacts, introductions and display names.
extension Account {
    /// The people this identity met: cards (full and compact), adding, finding and removing contacts, introductions and display names.
    public struct Contacts: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// The people this identity met: cards (full and compact), adding, finding and removing contacts, introductions and display names.
    public var contacts: Contacts { Contacts(account: self) }
}
