import KithIdentity

/// Progress of a ``SyncSession``, reported to ``SyncSessionOptions/observer`` as it happens.
public enum SyncSessionEvent: Hashable, Sendable {
    /// The peer offered `messageCount` messages of `feed` (what this side will receive), holding
    /// up to `haveSequence` (0xFFFFFFFF: nothing). The event names the real feed; the wire
    /// carried its per-link ``SyncFeedTag`` (docs/sync.md 9b).
    case offerReceived(feed: FeedID, haveSequence: UInt32, messageCount: UInt32)
    /// This side queued a message of `feed` for sending (`bytes`: envelope size).
    case messageSent(SyncMessageID, feed: FeedID, bytes: Int)
    /// A message arrived, was verified against its id and ingested with this verdict.
    case messageReceived(ReceivedMessage, SyncIngestResult)
    /// The peer acknowledged a message this side sent.
    case acknowledged(SyncAck)
    /// This side queued a blob for sending.
    case blobSent(SyncBlobID, bytes: Int)
    /// A wanted blob arrived complete and verified (`stored`: the blob source kept it).
    case blobReceived(SyncBlobID, bytes: Int, stored: Bool)
    /// A wanted blob will not come (the peer lacks it, it is too large, or it failed its hash).
    case blobUnavailable(SyncBlobID)
}
