/// Writing to the feed: posts (with attachments), reactions, retractions, profile updates, and the encrypted blobs they reference.
extension Account {
    /// Writing to the feed: posts (with attachments), reactions, retractions, profile updates, and the encrypted blobs they reference.
    public struct Publishing: Sendable {
        /// The account this capability acts for.
        let account: Account
    }

    /// Writing to the feed: posts (with attachments), reactions, retractions, profile updates, and the encrypted blobs they reference.
    public var publishing: Publishing { Publishing(account: self) }
}
