/// Key rotation: replacing this identity's keys (the feed id stays), and the rotations seen on other feeds.
extension Account {
    /// Key rotation: replacing this identity's keys (the feed id stays), and the rotations seen on other feeds.
    public struct Rotation: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Key rotation: replacing this identity's keys (the feed id stays), and the rotations seen on other feeds.
    public var rotation: Rotation { Rotation(account: self) }
}
