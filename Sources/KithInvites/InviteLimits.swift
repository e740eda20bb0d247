/// Every size bound of Convos-compatible invites, in one place (see `convos-invites.md` §3, §4.5).
public enum InviteLimits {
    /// The largest SignedInvite a code may carry, compressed or not: 1 MiB, Convos' decompression cap.
    public static let maxSignedInviteBytes = 1 << 20

    /// The largest ratio of declared to compressed size a `0x1F` frame may claim.
    public static let maxCompressionRatio = 100

    /// The longest invite code accepted, `*` separators included: enough for a 1 MiB frame in base64url.
    public static let maxCodeCharacters = (maxSignedInviteBytes + 5) / 3 * 4 + 4 + (maxSignedInviteBytes / 200)

    /// The shortest bare code accepted (Convos' paste rule); shorter text is not an invite.
    public static let minCodeCharacters = 50

    /// Convos inserts `*` after every this many base64url characters.
    public static let separatorInterval = 300

    /// A signature is `r(32) ‖ s(32) ‖ recid(1)`.
    public static let signatureBytes = 65

    /// An inbox id is 32 bytes (64 lowercase hex characters as text).
    public static let inboxIDBytes = 32

    /// The shortest conversation token Convos accepts.
    public static let minTokenBytes = 32

    /// The longest conversation-id string a token can carry.
    public static let maxConversationIDBytes = 65_535

    /// The longest token: version, nonce, a maximal long-form plaintext and the tag.
    public static let maxTokenBytes = 1 + 12 + 3 + maxConversationIDBytes + 16

    /// The longest tag read from another client (Kith writes exactly ``conversationTagLength``).
    public static let maxTagBytes = 64

    /// The length of tags Kith writes (`KithConvos.ConversationTag.length`).
    public static let conversationTagLength = 10

    /// Kith's bounds on the preview fields (Convos has none): a Kith creator writes nothing longer and a Kith joiner
    /// refuses to act on an invite with longer ones (``InvitePayload/checkKithBounds()``).
    public static let maxNameBytes = 128
    /// The longest description, in UTF-8 bytes.
    public static let maxDescriptionBytes = 1_024
    /// The longest image URL, in UTF-8 bytes.
    public static let maxImageURLBytes = 2_048
    /// The longest emoji, in UTF-8 bytes.
    public static let maxEmojiBytes = 64

    /// The inbox-id nonces the binding check tries: 0 for iOS-created inboxes, 1 for convos-cli / node-sdk ones.
    public static let bindingNonces: [UInt64] = [0, 1]
}
