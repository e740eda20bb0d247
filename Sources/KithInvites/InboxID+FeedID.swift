import KithIdentity

extension InboxID {
    /// The inbox id of a Kith invite: the creator's feed id, SHA-256 of its original Ed25519 identity key, as the
    /// 32 raw bytes Convos' `creator_inbox_id` field carries (its hex is the lowercase 64-character form the
    /// token's HKDF info and AAD use).
    public init(feedID: FeedID) {
        // A feed id is always 32 bytes.
        self.init(uncheckedBytes: feedID.rawBytes)
    }

    /// The feed id these 32 bytes name (every inbox id is a well-formed feed id; whether a Kith identity owns it is
    /// for the caller to check).
    public var feedID: FeedID? { try? FeedID(rawBytes: bytes) }
}
