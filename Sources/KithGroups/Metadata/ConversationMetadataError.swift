import KithCanonical

/// Why conversation metadata (Convos appData) or the XMTP group metadata carrying it was refused.
///
/// Reading never crashes and never half-succeeds: every malformed input ends in one of these cases.
public enum ConversationMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The encoded appData text is longer than ``MetadataLimits/maxEncodedBytes`` (on read, or after an edit).
    case appDataTooLarge(bytes: Int, limit: Int)
    /// The appData text is not canonical unpadded base64url.
    case invalidBase64URL(Base64URLError)
    /// A compressed frame (first byte `0x1F`) too short for its 5-byte header and a body.
    case truncatedFrame(bytes: Int)
    /// A compressed frame declares zero bytes or more than ``MetadataLimits/maxDecompressedBytes``.
    case declaredLengthOutOfRange(declared: Int, limit: Int)
    /// A compressed frame declares more than ``MetadataLimits/maxCompressionRatio`` times its body size.
    case compressionRatioTooHigh(declared: Int, compressedBytes: Int, limit: Int)
    /// The compressed body is neither raw DEFLATE nor zlib-wrapped DEFLATE, or is cut short.
    case corruptCompressedBody
    /// The body inflates to a different length than its header declares (`actual` is `nil` when it is longer).
    case decompressedLengthMismatch(declared: Int, actual: Int?)
    /// The bytes are not a `ConversationCustomMetadata` protobuf (or not the group metadata protobuf).
    case malformedProtobuf(String)
    /// A profile whose member id is not 32 bytes.
    case invalidMemberID(bytes: Int)
    /// More than ``MetadataLimits/maxProfiles`` profiles.
    case tooManyProfiles(count: Int, limit: Int)
    /// A value longer than its bound (``MetadataLimits``).
    case fieldTooLong(field: String, bytes: Int, limit: Int)
    /// A tag that is not exactly 10 characters of `[A-Za-z0-9]`.
    case invalidTag(String)
    /// A write that would clear the conversation's non-empty invite tag (it would break every later join).
    case tagCleared
    /// The metadata could not be serialized (an internal error of the protobuf library).
    case encodingFailed(String)

    /// What went wrong and what to do about it, for logs and error messages.
    public var description: String {
        switch self {
        case .appDataTooLarge(let bytes, let limit):
            "appData is \(bytes) bytes encoded, over the \(limit)-byte limit: shorten names or images, or remove stale profiles"
        case .invalidBase64URL(let reason): "appData is not base64url: \(reason)"
        case .truncatedFrame(let bytes):
            "compressed appData of \(bytes) bytes is cut short: a frame is 0x1F, a 4-byte length and a DEFLATE body"
        case .declaredLengthOutOfRange(let declared, let limit):
            "compressed appData declares \(declared) bytes; it must be between 1 and \(limit)"
        case .compressionRatioTooHigh(let declared, let compressed, let limit):
            "compressed appData declares \(declared) bytes from \(compressed): more than \(limit) times (refused as a decompression bomb)"
        case .corruptCompressedBody:
            "compressed appData is neither raw DEFLATE nor zlib-wrapped DEFLATE, or is truncated"
        case .decompressedLengthMismatch(let declared, let actual):
            if let actual {
                "compressed appData inflates to \(actual) bytes, not the \(declared) its header declares"
            } else {
                "compressed appData inflates to more than the \(declared) bytes its header declares"
            }
        case .malformedProtobuf(let reason): "appData is not valid conversation metadata: \(reason)"
        case .invalidMemberID(let bytes):
            "a profile's member id is \(bytes) bytes; it must be \(MetadataLimits.memberIDBytes)"
        case .tooManyProfiles(let count, let limit): "\(count) profiles, over the limit of \(limit)"
        case .fieldTooLong(let field, let bytes, let limit): "\(field) is \(bytes) bytes (UTF-8); the limit is \(limit)"
        case .invalidTag(let tag):
            "invalid conversation tag '\(tag.prefix(32))': expected exactly 10 characters of A-Z, a-z, 0-9"
        case .tagCleared:
            "refused: this write would clear the conversation's invite tag, which breaks later joins; keep or rotate it"
        case .encodingFailed(let reason): "conversation metadata could not be encoded: \(reason)"
        }
    }
}
