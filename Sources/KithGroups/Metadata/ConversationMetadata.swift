import KithConvos
import KithIdentity

/// The conversation metadata every Kith group carries, wire-compatible with Convos' `ConversationCustomMetadata`.
///
/// It holds the invite ``tag``, one ``MemberProfile`` per member who published one, the moment the conversation
/// explodes (``expiresAtUnix``) and its ``emoji``. It travels as Convos appData text (``encodedAppData()``) in the
/// `app_data` attribute of XMTP's mutable group metadata, MLS GroupContext extension `0xff00`
/// (``GroupMutableMetadata``).
///
/// A value is always within ``MetadataLimits``: every initializer and every edit checks the result and throws
/// rather than produce a record other clients would refuse. Fields Kith does not model (Convos' group image key and
/// encrypted group image, agent-DM marker, fields added by later clients) are kept exactly as read, so a Kith member
/// never drops what a Convos member wrote.
///
/// Edits are pure functions returning a new value: ``updatingProfile(of:name:image:)`` for one's own profile,
/// ``applyingUpdate(_:from:)`` for merging a member's proposed record into the current one, and
/// ``replaced(by:)`` for the committer's whole-record writes.
public struct ConversationMetadata: Sendable, Hashable {
    /// The invite tag as stored: 10 characters of `[A-Za-z0-9]` when Kith or Convos wrote it, empty when none is set.
    public let tag: String

    /// The members' profiles, in stored order.
    public let profiles: [MemberProfile]

    /// When the conversation explodes, in Unix seconds, if scheduled.
    public let expiresAtUnix: Int64?

    /// The conversation's emoji, if set.
    public let emoji: String?

    /// Every other field of the record, known and unknown, as read (the four above cleared).
    let preserved: Kith_Convos_ConversationCustomMetadata

    /// The appData text of this value, computed once when the value was checked.
    private let appData: String

    /// Creates the metadata of a new conversation.
    ///
    /// - Throws: ``ConversationMetadataError`` when a field breaks ``MetadataLimits``.
    public init(
        tag: ConversationTag, profiles: [MemberProfile] = [], expiresAtUnix: Int64? = nil, emoji: String? = nil
    ) throws(ConversationMetadataError) {
        for profile in profiles { try profile.checkWritableBounds() }
        try Self.checkEmoji(emoji)
        try self.init(
            tag: tag.string, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji,
            preserved: Kith_Convos_ConversationCustomMetadata())
    }

    /// The one place a value is assembled: checks the structural bounds and computes the encoding.
    init(
        tag: String, profiles: [MemberProfile], expiresAtUnix: Int64?, emoji: String?,
        preserved: Kith_Convos_ConversationCustomMetadata
    ) throws(ConversationMetadataError) {
        guard profiles.count <= MetadataLimits.maxProfiles else {
            throw .tooManyProfiles(count: profiles.count, limit: MetadataLimits.maxProfiles)
        }
        let text = try AppDataCodec.encode(
            Self.assemble(tag: tag, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji, preserved: preserved))
        guard text.utf8.count <= MetadataLimits.maxEncodedBytes else {
            throw .appDataTooLarge(bytes: text.utf8.count, limit: MetadataLimits.maxEncodedBytes)
        }
        self.tag = tag
        self.profiles = profiles
        self.expiresAtUnix = expiresAtUnix
        self.emoji = emoji
        self.preserved = preserved
        appData = text
    }

    /// Reads a protobuf record; any 32-byte member ids and any tag text are accepted.
    init(message: Kith_Convos_ConversationCustomMetadata) throws(ConversationMetadataError) {
        guard message.profiles.count <= MetadataLimits.maxProfiles else {
            throw .tooManyProfiles(count: message.profiles.count, limit: MetadataLimits.maxProfiles)
        }
        var profiles: [MemberProfile] = []
        profiles.reserveCapacity(message.profiles.count)
        for entry in message.profiles { profiles.append(try MemberProfile(message: entry)) }
        var rest = message
        rest.tag = ""
        rest.profiles = []
        rest.clearExpiresAtUnix()
        rest.clearEmoji()
        try self.init(
            tag: message.tag, profiles: profiles, expiresAtUnix: message.hasExpiresAtUnix ? message.expiresAtUnix : nil,
            emoji: message.hasEmoji ? message.emoji : nil, preserved: rest)
    }

    /// The protobuf record: the preserved fields with the modelled ones put back.
    var message: Kith_Convos_ConversationCustomMetadata {
        Self.assemble(tag: tag, profiles: profiles, expiresAtUnix: expiresAtUnix, emoji: emoji, preserved: preserved)
    }

    private static func assemble(
        tag: String, profiles: [MemberProfile], expiresAtUnix: Int64?, emoji: String?,
        preserved: Kith_Convos_ConversationCustomMetadata
    ) -> Kith_Convos_ConversationCustomMetadata {
        var message = preserved
        message.tag = tag
        message.profiles = profiles.map(\.message)
        if let expiresAtUnix { message.expiresAtUnix = expiresAtUnix }
        if let emoji { message.emoji = emoji }
        return message
    }

    /// The invite tag, when the stored one follows the strict rule (``ConversationTag``).
    public var inviteTag: ConversationTag? { try? ConversationTag(tag) }

    /// The first profile of `member`, if it published one.
    public func profile(of member: FeedID) -> MemberProfile? {
        profiles.first { $0.feedID == member }
    }

    /// The appData text: base64url (no padding) of the frame (``AppDataFrame``) around the protobuf record.
    ///
    /// Never longer than ``MetadataLimits/maxEncodedBytes``: the value was checked when it was made.
    public func encodedAppData() -> String { appData }

    /// Checks an emoji against its bound.
    static func checkEmoji(_ emoji: String?) throws(ConversationMetadataError) {
        if let emoji, emoji.utf8.count > MetadataLimits.maxEmojiBytes {
            throw .fieldTooLong(field: "emoji", bytes: emoji.utf8.count, limit: MetadataLimits.maxEmojiBytes)
        }
    }
}
