/// What an invite says, as Swift values: the fields of Convos' `InvitePayload`.
///
/// The signed bytes are never re-derived from this value when verifying: ``SignedInvite`` keeps the payload
/// bytes exactly as carried.
public struct InvitePayload: Sendable, Hashable {
    /// Which schema a decoded payload was written with.
    public enum Format: Sendable, Hashable {
        /// The current schema (bytes token, raw 32-byte inbox id, `sfixed64` times).
        case current
        /// The October-2025 schema: the token as base64url text and/or the inbox id as hex text and/or
        /// `Timestamp` times. Kith reads it and never writes it.
        case legacy
    }

    /// The encrypted conversation id.
    public var conversationToken: ConversationToken
    /// The issuer's inbox id.
    public var creatorInboxID: InboxID
    /// The group's invite tag.
    public var tag: String
    /// The conversation name, for a public preview.
    public var name: String?
    /// The conversation description (may be present and empty).
    public var description: String?
    /// A public, unencrypted image URL.
    public var imageURL: String?
    /// When the conversation explodes, Unix seconds.
    public var conversationExpiresAtUnix: Int64?
    /// When the invite expires, Unix seconds.
    public var expiresAtUnix: Int64?
    /// The invite is meant for a single use.
    public var expiresAfterUse: Bool
    /// The conversation's emoji.
    public var emoji: String?
    /// Kith's field 1000: how a joiner who never met the creator reaches it (nil on Convos invites and on invites for
    /// contacts only).
    public var reach: InviteReach?
    /// The schema the payload was read from (``Format/current`` for payloads built in Kith).
    public internal(set) var format: Format

    /// A payload in the current format.
    public init(
        conversationToken: ConversationToken, creatorInboxID: InboxID, tag: String, name: String? = nil,
        description: String? = nil, imageURL: String? = nil, conversationExpiresAtUnix: Int64? = nil,
        expiresAtUnix: Int64? = nil, expiresAfterUse: Bool = false, emoji: String? = nil, reach: InviteReach? = nil
    ) {
        self.conversationToken = conversationToken
        self.creatorInboxID = creatorInboxID
        self.tag = tag
        self.name = name
        self.description = description
        self.imageURL = imageURL
        self.conversationExpiresAtUnix = conversationExpiresAtUnix
        self.expiresAtUnix = expiresAtUnix
        self.expiresAfterUse = expiresAfterUse
        self.emoji = emoji
        self.reach = reach
        self.format = .current
    }

    /// Checks the two expiry fields against `nowUnix` (a time equal to the expiry is still valid, as in Convos).
    ///
    /// - Throws: ``InviteError/inviteExpired(expiresAtUnix:)`` or ``InviteError/conversationExpired(expiresAtUnix:)``.
    public func checkNotExpired(nowUnix: Int64) throws(InviteError) {
        if let expiresAtUnix, expiresAtUnix < nowUnix { throw .inviteExpired(expiresAtUnix: expiresAtUnix) }
        if let conversationExpiresAtUnix, conversationExpiresAtUnix < nowUnix {
            throw .conversationExpired(expiresAtUnix: conversationExpiresAtUnix)
        }
    }
}
