import KithConvos
import KithIdentity

extension ConversationMetadata {
    /// The same record with `member`'s name and image set (`nil` clears one); no other entry or field changes.
    ///
    /// The member's entry keeps its place and its other fields (Convos' encrypted image reference, unknown fields);
    /// a member without an entry gets one at the end. Extra entries of the same member, which a record should not
    /// hold, are dropped in favour of the first.
    ///
    /// - Throws: ``ConversationMetadataError/fieldTooLong(field:bytes:limit:)`` for a name or image over its bound,
    ///   ``ConversationMetadataError/tooManyProfiles(count:limit:)`` or
    ///   ``ConversationMetadataError/appDataTooLarge(bytes:limit:)`` when the record would grow past its bounds.
    public func updatingProfile(of member: FeedID, name: String?, image: String?) throws(ConversationMetadataError)
        -> ConversationMetadata
    {
        let updated = (profile(of: member) ?? MemberProfile(feedID: member)).with(name: name, image: image)
        try updated.checkWritableBounds()
        return try with(profiles: Self.placing(updated, of: member, in: profiles))
    }

    /// The same record without `member`'s profile (for the committer, when the member leaves or is removed).
    ///
    /// - Throws: nothing in practice (a smaller record stays within bounds); typed for uniformity.
    public func removingProfile(of member: FeedID) throws(ConversationMetadataError) -> ConversationMetadata {
        try with(profiles: profiles.filter { $0.feedID != member })
    }

    /// The same record exploding at `unixSeconds` (`nil`: never).
    ///
    /// - Throws: ``ConversationMetadataError/appDataTooLarge(bytes:limit:)`` if the record would grow past 8 KiB.
    public func settingExpiry(_ unixSeconds: Int64?) throws(ConversationMetadataError) -> ConversationMetadata {
        try ConversationMetadata(
            tag: tag, profiles: profiles, expiresAtUnix: unixSeconds, emoji: emoji, preserved: preserved)
    }

    /// The same record with the conversation emoji `emoji` (`nil` clears it).
    ///
    /// - Throws: ``ConversationMetadataError/fieldTooLong(field:bytes:limit:)`` or
    ///   ``ConversationMetadataError/appDataTooLarge(bytes:limit:)``.
    public func settingEmoji(_ emoji: String?) throws(ConversationMetadataError) -> ConversationMetadata {
        try Self.checkEmoji(emoji)
        return try ConversationMetadata(
            tag: tag, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji, preserved: preserved)
    }

    /// The same record with a new invite tag, which revokes every invite carrying the old one.
    ///
    /// - Throws: ``ConversationMetadataError/appDataTooLarge(bytes:limit:)`` if the record would grow past 8 KiB.
    public func rotatingTag(to newTag: ConversationTag) throws(ConversationMetadataError) -> ConversationMetadata {
        try ConversationMetadata(
            tag: newTag.string, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji, preserved: preserved)
    }

    /// The same record, with a fresh tag from `makeTag` if it has none (Convos' self-heal of a wiped tag).
    ///
    /// - Throws: ``ConversationMetadataError/appDataTooLarge(bytes:limit:)`` if the record would grow past 8 KiB.
    public func ensuringTag(_ makeTag: () -> ConversationTag = { ConversationTag.random() })
        throws(ConversationMetadataError) -> ConversationMetadata
    {
        tag.isEmpty ? try rotatingTag(to: makeTag()) : self
    }

    /// The same record with other profiles.
    func with(profiles: [MemberProfile]) throws(ConversationMetadataError) -> ConversationMetadata {
        try ConversationMetadata(
            tag: tag, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji, preserved: preserved)
    }

    /// `profiles` with `member`'s entries replaced by `entry` (at the first one's place, or appended); `nil` removes them.
    static func placing(_ entry: MemberProfile?, of member: FeedID, in profiles: [MemberProfile]) -> [MemberProfile] {
        var result: [MemberProfile] = []
        result.reserveCapacity(profiles.count + 1)
        var placed = false
        for profile in profiles {
            guard profile.feedID == member else {
                result.append(profile)
                continue
            }
            if !placed, let entry { result.append(entry) }
            placed = true
        }
        if !placed, let entry { result.append(entry) }
        return result
    }
}
