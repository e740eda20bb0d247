/// Why a recovery share, request or release was refused, or why shares did not rebuild a secret.
public enum RecoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The threshold is outside `RecoveryLimits.minThreshold`…`RecoveryLimits.maxShares`.
    case thresholdOutOfRange(Int)
    /// The number of shares is below the threshold or above `RecoveryLimits.maxShares`.
    case shareCountOutOfRange(threshold: Int, count: Int)
    /// The secret is empty or longer than `RecoveryLimits.maxSecretBytes`.
    case secretSizeOutOfRange(Int)
    /// A feed id is not 32 bytes.
    case invalidFeedID(byteCount: Int)
    /// Encoded bytes or text are not a share, request or release of a version this build reads.
    case malformed(kind: String, reason: String)
    /// Fewer shares than the threshold were given: nothing can be rebuilt (and nothing is revealed).
    case notEnoughShares(have: Int, need: Int)
    /// Two shares carry the same index (the same guardian's share given twice).
    case duplicateShare(index: Int)
    /// The shares belong to different sets (another set id, generation, threshold, size or owner): an old set's
    /// shares cannot be combined with a new set's.
    case sharesFromDifferentSets(field: String)
    /// A share or request names another owner than the one being recovered.
    case ownerMismatch
    /// The rebuilt value failed its integrity digest: at least one share is forged, altered or from a non-guardian.
    case integrityCheckFailed
    /// A release answers another recovery request (another nonce).
    case releaseForAnotherRequest
    /// A release does not open with this request's key, or was altered in transit.
    case releaseDoesNotOpen
    /// The same release was handed in twice.
    case releaseReplayed
    /// The system could not provide randomness or the sealing primitive failed.
    case cryptoFailure(String)

    public var description: String {
        switch self {
        case .thresholdOutOfRange(let value):
            "threshold \(value) is outside \(RecoveryLimits.minThreshold)...\(RecoveryLimits.maxShares)"
        case .shareCountOutOfRange(let threshold, let count):
            "\(count) guardians for threshold \(threshold): need between the threshold and \(RecoveryLimits.maxShares)"
        case .secretSizeOutOfRange(let count):
            "a recovery secret of \(count) bytes: must be 1...\(RecoveryLimits.maxSecretBytes)"
        case .invalidFeedID(let count):
            "a feed id of \(count) bytes: must be \(RecoveryLimits.feedIDBytes)"
        case .malformed(let kind, let reason):
            "not a valid recovery \(kind): \(reason)"
        case .notEnoughShares(let have, let need):
            "\(have) recovery share(s) given, \(need) needed: ask more guardians to release theirs"
        case .duplicateShare(let index):
            "share \(index) was given twice: each guardian's share counts once"
        case .sharesFromDifferentSets(let field):
            "the shares come from different guardian sets (their \(field) differ): use shares of the newest set only"
        case .ownerMismatch:
            "the share or request belongs to another feed than the one being recovered"
        case .integrityCheckFailed:
            "the shares do not rebuild a valid secret: at least one is forged, altered or not from a guardian"
        case .releaseForAnotherRequest:
            "this release answers another recovery request: ask the guardian to release to the current request"
        case .releaseDoesNotOpen:
            "this release does not open with the current request's key (altered, or made for another request)"
        case .releaseReplayed:
            "this release was already handed in"
        case .cryptoFailure(let reason):
            "recovery cryptography failed: \(reason)"
        }
    }
}
