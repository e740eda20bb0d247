/// Every bound of the feed format in one place (quoted by docs/FEED-FORMAT.md).
public enum FeedLimits {
    /// The only envelope version this implementation verifies and decrypts.
    public static let currentVersion: Int64 = 1
    /// Largest accepted envelope, in bytes of canonical JSON (spec 8.3: "messages should be under 64 KB").
    public static let maxEnvelopeBytes = 65_536
    /// Largest sequence number: 0xFFFFFFFF is reserved by the sync wire for "nothing".
    public static let maxSequence: UInt32 = 0xFFFF_FFFE
    /// Longest `type`, in ASCII characters (spec 3.2).
    public static let maxTypeLength = 64
    /// Longest `audience` string.
    public static let maxAudienceLength = 128
    /// Most top-level fields in an envelope (9 known plus forward-compatible extras).
    public static let maxEnvelopeFields = 24
    /// Largest decoded `content_enc`, in bytes.
    public static let maxContentBytes = 60_000
    /// Ed25519 signature length.
    public static let signatureBytes = 64
    /// Post body limit in Unicode scalars (spec 5.1).
    public static let maxPostBody = 2000
    /// Attachments per post (spec 5.1).
    public static let maxAttachments = 4
    /// Mentions per post (Kith bound; the spec gives none).
    public static let maxMentions = 64
    /// Reaction emoji: 1...4 Unicode scalars forming one character (spec 5.2).
    public static let maxEmojiScalars = 4
    /// Display name limit in Unicode scalars (spec 5.3).
    public static let maxDisplayName = 64
    /// Introduction note limit in Unicode scalars (spec 5.4).
    public static let maxIntroductionNote = 256
    /// ML-KEM-768 public key length.
    public static let pqPublicKeyBytes = 1184
    /// Largest decrypted content object, in bytes.
    public static let maxContentJSONBytes = 60_000
    /// Most one-time prekeys one `prekey_batch` message carries (larger refills are split).
    public static let maxPrekeysPerMessage = 500
    /// Largest `prekey_batch` wire: header 3 + 36 bytes per key.
    public static let maxPrekeyBatchBytes = 3 + 36 * maxPrekeysPerMessage
}
