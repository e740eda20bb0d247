import KithStore

/// One inner-circle contact as `kith circle status` shows it: the pools shared with them (nil
/// when none) and what the next sync session with them does.
public struct CircleMember: Sendable, Equatable {
    /// The contact's feed id.
    public let feedID: String
    /// The pools shared with the contact; nil before an exchange or after a revocation.
    public let pools: OneTimePoolStatus?
    /// The armed exchange or the revocation still to announce, if any.
    public let intent: OneTimeIntent?

    /// Creates a member.
    public init(feedID: String, pools: OneTimePoolStatus?, intent: OneTimeIntent?) {
        self.feedID = feedID
        self.pools = pools
        self.intent = intent
    }
}
