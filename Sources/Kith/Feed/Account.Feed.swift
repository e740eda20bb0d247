/// Reading what is held here and exchanging feeds as exported lines or files.
extension Account {
    /// Reading what is held here and exchanging feeds as exported lines or files.
    public struct Feed: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Reading what is held here and exchanging feeds as exported lines or files.
    public var feed: Feed { Feed(account: self) }
}
