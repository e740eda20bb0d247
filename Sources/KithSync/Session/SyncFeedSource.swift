/// What a ``SyncSession`` needs from the local store. The SQLite-backed store implements this later;
/// ``InMemoryFeedSource`` is the reference used in tests and benchmarks.
public protocol SyncFeedSource: Sendable {
    /// The feeds to request from `peer`, each with the highest sequence held contiguously from 0.
    func followedFeeds(for peer: SyncPeer) async -> [SyncFeedState]

    /// What this device can send `peer` for `feed` above `haveSequence` (nil: the peer has nothing),
    /// newest first, leaving out messages the peer already acknowledged. Nil when the feed is
    /// unknown here or not shared with this peer.
    func outgoing(feed: SyncFeedID, above haveSequence: UInt32?, for peer: SyncPeer) async -> SyncFeedBatch?

    /// Verifies and stores a batch of messages received from `peer` (the messages of one sealed
    /// frame), ideally in one transaction; returns one verdict per message, in order.
    func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async -> [SyncIngestResult]

    /// Records `peer`'s verdict on a message this device sent (so a later session skips it).
    func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async
}
