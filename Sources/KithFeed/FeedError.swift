/// Why an envelope, a content object or a chain was rejected.
///
/// Every case has a stable snake_case ``code`` (printed by `kith feed verify` and listed in
/// docs/FEED-FORMAT.md) and a one-line human ``description``.
public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not valid JSON of Kith's subset.
    case malformedJSON(String)
    /// The bytes are valid JSON but not their own canonical serialization.
    case notCanonical(String)
    /// The envelope exceeds ``FeedLimits/maxEnvelopeBytes``.
    case tooLarge(Int)
    /// The top-level value is not an object.
    case notAnObject
    /// A required field is absent.
    case missingField(String)
    /// A field has the wrong JSON type or an invalid value.
    case invalidField(String, reason: String)
    /// The `type` string is empty, too long or not printable ASCII.
    case invalidType(String)
    /// The `audience` string does not follow the grammar.
    case invalidAudience(String, reason: String)
    /// `feed_id` is not SHA-256 of the key the feed is verified with.
    case feedIDMismatch(expected: String, found: String)
    /// The Ed25519 signature does not verify.
    case badSignature
    /// `previous` is null on a non-genesis message or set on the genesis message.
    case invalidPrevious(String)
    /// `previous` differs from the id of the stored message N-1.
    case chainBroken(sequence: UInt32, expected: String, found: String)
    /// A sequence number is missing before this message.
    case sequenceGap(expected: UInt32, found: UInt32)
    /// A different, validly signed message already holds this sequence number (fork).
    case fork(sequence: UInt32)
    /// The decrypted content's `type` differs from the envelope's.
    case contentTypeMismatch(envelope: String, content: String)
    /// The content object breaks a rule of its type (spec 5).
    case invalidContent(type: String, reason: String)
    /// The content could not be decrypted with the available key.
    case decryptionFailed(String)
    /// The envelope's version is not 1: it may be relayed but not verified.
    case unsupportedVersion(Int64)
    /// The feed is not followed here, so no key can verify it.
    case unknownFeed(String)
    /// An unsigned entry (self stub, later-version envelope) contradicts the held chain.
    case conflictingEntry(sequence: UInt32)
    /// Too many entries are already held ahead of a gap for this feed.
    case pendingLimit(String)
    /// A feature not available yet (for example an audience this build cannot encrypt for).
    case unsupported(String)
    /// The signature fails after a key rotation announced at `announcedAt` whose content is not
    /// readable here, so the key in force at `sequence` is unknown.
    case rotatedKeyUnknown(sequence: UInt32, announcedAt: UInt32)

    /// The stable reason code.
    public var code: String {
        switch self {
        case .malformedJSON: "malformed_json"
        case .notCanonical: "not_canonical"
        case .tooLarge: "too_large"
        case .notAnObject: "not_an_object"
        case .missingField: "missing_field"
        case .invalidField: "invalid_field"
        case .invalidType: "invalid_type"
        case .invalidAudience: "invalid_audience"
        case .feedIDMismatch: "feed_id_mismatch"
        case .badSignature: "bad_signature"
        case .invalidPrevious: "invalid_previous"
        case .chainBroken: "chain_broken"
        case .sequenceGap: "sequence_gap"
        case .fork: "fork"
        case .contentTypeMismatch: "content_type_mismatch"
        case .invalidContent: "invalid_content"
        case .decryptionFailed: "decryption_failed"
        case .unsupportedVersion: "unsupported_version"
        case .unknownFeed: "unknown_feed"
        case .conflictingEntry: "conflicting_entry"
        case .pendingLimit: "pending_limit"
        case .unsupported: "unsupported"
        case .rotatedKeyUnknown: "rotated_key_unknown"
        }
    }

    public var description: String {
        switch self {
        case .malformedJSON(let reason): "not valid JSON: \(reason)"
        case .notCanonical(let reason): "not in canonical form: \(reason)"
        case .tooLarge(let size): "envelope of \(size) bytes exceeds the \(FeedLimits.maxEnvelopeBytes)-byte limit"
        case .notAnObject: "an envelope must be a JSON object"
        case .missingField(let name): "required field '\(name)' is missing"
        case .invalidField(let name, let reason): "field '\(name)' is invalid: \(reason)"
        case .invalidType(let type): "type '\(type.prefix(80))' must be 1...\(FeedLimits.maxTypeLength) printable ASCII characters"
        case .invalidAudience(let text, let reason): "audience '\(text.prefix(80))' is invalid: \(reason)"
        case .feedIDMismatch(let expected, let found): "feed_id \(found) does not match the signing key (expected \(expected))"
        case .badSignature: "the Ed25519 signature does not verify"
        case .invalidPrevious(let reason): "invalid previous: \(reason)"
        case .chainBroken(let sequence, let expected, let found):
            "message \(sequence) links to \(found) but message \(sequence - 1) is \(expected)"
        case .sequenceGap(let expected, let found): "expected sequence \(expected), found \(found)"
        case .fork(let sequence): "another validly signed message already holds sequence \(sequence): the feed is forked"
        case .contentTypeMismatch(let envelope, let content): "content type '\(content)' differs from envelope type '\(envelope)'"
        case .invalidContent(let type, let reason): "invalid \(type) content: \(reason)"
        case .decryptionFailed(let reason): "cannot decrypt: \(reason)"
        case .unsupportedVersion(let version): "envelope version \(version) is not supported (stored for relay only)"
        case .unknownFeed(let feed): "feed \(feed) is not followed here; add the contact or pass its key"
        case .conflictingEntry(let sequence): "an unsigned entry at sequence \(sequence) conflicts with the held chain"
        case .pendingLimit(let feed): "too many messages of feed \(feed) are waiting for a gap to fill"
        case .unsupported(let what): "\(what)"
        case .rotatedKeyUnknown(let sequence, let announced):
            "message \(sequence) is signed after the key rotation at sequence \(announced), which this identity cannot read; verify as a contact (or with the feed's current key)"
        }
    }
}
