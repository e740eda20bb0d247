import KithIdentity

/// What a ``SyncSession`` needs from the local store. ``InMemoryFeedSource`` is the reference used
/// in tests and benchmarks; `StoreSyncSource` (module `Kith`) is the SQLite one.
///
/// Every store access throws ``SyncSourceError`` when the store fails; the session then stops and
/// reports ``SyncSessionReport/localFailure`` (a failure is never read as "nothing held",
/// "nothing to offer" or "invalid").
public protocol SyncFeedSource: Sendable {
    /// The feeds to request from `peer`, each with the highest sequence held contiguously from 0.
    func followedFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [SyncFeedState]

    /// The feeds this device may offer `peer` (those ``outgoing(feed:above:for:)`` can answer),
    /// so the session can match the peer's blinded requests against them (docs/sync.md, 9b).
    func servableFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [FeedID]

    /// What this device can send `peer` for `feed` above `haveSequence` (nil: the peer has nothing),
    /// newest first, leaving out messages the peer already acknowledged. Nil when the feed is
    /// unknown here or not shared with this peer.
    func outgoing(feed: FeedID, above haveSequence: UInt32?, for peer: SyncPeer) async throws(SyncSourceError) -> SyncFeedBatch?

    /// The feed a received envelope belongs to, read from its bytes; nil when it names none.
    /// The session uses it to accept messages only for feeds the peer offered.
    func feedID(of envelope: [UInt8]) -> FeedID?

    /// Verifies and stores a batch of messages received from `peer` (the messages of one sealed
    /// frame), ideally in one transaction; returns one verdict per message, in order. Throws when
    /// the store failed (nothing of the batch is then acknowledged).
    func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async throws(SyncSourceError) -> [SyncIngestResult]

    /// Records `peer`'s verdict on a message this device sent (so a later session skips it).
    func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async throws(SyncSourceError)
}
