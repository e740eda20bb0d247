/// The verdict of ``SyncFeedSource/ingest(_:messageID:from:)``.
public enum SyncIngestResult: Hashable, Sendable {
    /// Verified and stored.
    case accepted
    /// Already held (acknowledged as ok).
    case duplicate
    /// Failed verification (acknowledged with status 0x01).
    case invalid
}
