import KithConvos
import KithIdentity

extension ConversationMetadata {
    /// Applies a member's proposed record to the current one: only that member's own profile is taken from it.
    ///
    /// A member publishes its profile by proposing a whole new record, built from the record it last saw. When two
    /// members do that concurrently, each proposal carries a stale copy of the other's entry; and a faulty or
    /// hostile client may propose a changed tag, expiry or someone else's profile (a Convos bug of this kind wiped
    /// invite tags and broke later joins). So the result is the current record with exactly one change: `member`'s
    /// entry becomes the one in `proposed` (or disappears, if `proposed` has none). The tag, the expiry, the emoji,
    /// every other member's entry and every field Kith does not model stay as they are, whatever `proposed` says.
    ///
    /// The caller has authenticated `member` as the proposal's sender (the MLS sender and the carrying feed).
    ///
    /// - Throws: ``ConversationMetadataError/fieldTooLong(field:bytes:limit:)`` when the member's new name or image
    ///   exceeds its bound, or ``ConversationMetadataError/appDataTooLarge(bytes:limit:)`` /
    ///   ``ConversationMetadataError/tooManyProfiles(count:limit:)`` when the result would; the current record is
    ///   then kept.
    public func applyingUpdate(_ proposed: ConversationMetadata, from member: FeedID) throws(ConversationMetadataError)
        -> ConversationMetadata
    {
        let entry = proposed.profile(of: member)
        if let entry, entry == profile(of: member) { return self }
        try entry?.checkWritableBounds()
        return try with(profiles: Self.placing(entry, of: member, in: profiles))
    }

    /// Checks a whole-record write by the group's committer (the creator by default), who may change any field.
    ///
    /// The one thing refused is clearing a non-empty tag: every outstanding invite and every joiner waiting for the
    /// group matches on it. A changed tag must follow the strict rule (``ConversationTag``).
    ///
    /// - Returns: `successor`, when it may replace this record.
    /// - Throws: ``ConversationMetadataError/tagCleared`` or ``ConversationMetadataError/invalidTag(_:)``.
    public func replaced(by successor: ConversationMetadata) throws(ConversationMetadataError) -> ConversationMetadata {
        if !tag.isEmpty, successor.tag.isEmpty { throw .tagCleared }
        if successor.tag != tag, !ConversationTag.isValid(successor.tag) { throw .invalidTag(successor.tag) }
        return successor
    }
}
