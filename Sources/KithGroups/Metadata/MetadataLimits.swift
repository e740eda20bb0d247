/// Every bound of the Convos conversation metadata, in one place.
///
/// The first five are Convos' own (`convos-invites.md` §1.2 and §4.5; libxmtp's `MAX_APP_DATA_LENGTH`); a Kith
/// reader and writer applies them exactly so that anything one side accepts, the other accepts too. The field
/// lengths are Kith's choice: they bound what a Kith member may *write* into its own profile and are not applied to
/// entries written by others, which only the overall size bounds.
public enum MetadataLimits {
    /// The largest encoded appData, in bytes of its base64url text (XMTP's `MAX_APP_DATA_LENGTH`, 8 KiB).
    public static let maxEncodedBytes = 8192

    /// The largest decompressed protobuf a frame may declare (10 MiB).
    public static let maxDecompressedBytes = 10 * 1024 * 1024

    /// The largest ratio of declared (decompressed) size to compressed body size.
    public static let maxCompressionRatio = 100

    /// Serialized metadata of at most this many bytes is never compressed.
    public static let compressionThreshold = 100

    /// The most member profiles one record may hold (XMTP's `MAX_GROUP_SIZE`, 250 inboxes).
    public static let maxProfiles = 250

    /// The length of a member id (a Kith feed id or an XMTP inbox id, raw).
    public static let memberIDBytes = 32

    /// The longest display name a member may write, in UTF-8 bytes.
    public static let maxNameBytes = 256

    /// The longest image reference (a URL) a member may write, in UTF-8 bytes.
    public static let maxImageBytes = 2048

    /// The longest conversation emoji, in UTF-8 bytes (room for multi-scalar emoji sequences).
    public static let maxEmojiBytes = 64

    /// The deepest protobuf nesting accepted on read (the schema itself nests three levels).
    static let maxMessageDepth = 8
}
