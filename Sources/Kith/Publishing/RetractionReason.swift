import KithFeed

/// Why a message is retracted: the `reason` of its tombstone (spec 5.7; the raw values are
/// `Tombstone.reasons`).
public enum RetractionReason: String, Sendable, CaseIterable {
    /// The author takes it back.
    case retracted
    /// It was sent by mistake.
    case error
    /// It was spam.
    case spam
}
