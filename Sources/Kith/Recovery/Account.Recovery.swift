/// Recovery through contacts: the guardian sets this identity makes, the shares it holds for others, and releases.
extension Account {
    /// Recovery through contacts: the guardian sets this identity makes, the shares it holds for others, and releases.
    public struct Recovery: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Recovery through contacts: the guardian sets this identity makes, the shares it holds for others, and releases.
    public var recovery: Recovery { Recovery(account: self) }
}
