import KithIdentity

/// What one ``SyncSession`` achieved.
public struct SyncSessionReport: Equatable, Sendable {
    /// True when the exchange ran to its end (both sides served every request, every message was
    /// acknowledged) **and** the peer refused none of the messages this side sent. A session that
    /// ended cleanly with refusals is not complete: see ``messagesRefusedByPeer``.
    public var completed = false
    /// Why the session ended early, if the link failed or closed before the end.
    public var interruption: SecureLinkError?
    /// The local store failed (this side stopped; nothing was acknowledged for the failed step).
    public var localFailure: SyncSourceError?
    /// Feeds this side could not serve as stored (offered empty), with the reason; see
    /// ``SyncSourceError/feedOnly``.
    public var feedsWithheld: [FeedID: String] = [:]
    /// A protocol rule the peer broke, if any (the session then ends).
    public var violation: SyncSessionViolation?
    /// Requests this side sent.
    public var requestsSent = 0
    /// Requests the peer sent.
    public var requestsReceived = 0
    /// Messages this side offered and sent.
    public var messagesSent = 0
    /// Acknowledgements received for them.
    public var acknowledgementsReceived = 0
    /// Messages this side sent that the peer acknowledged as not stored (status `invalid`: failed
    /// verification, or refused by its store, for example a full pending capacity).
    public var messagesRefusedByPeer = 0
    /// ``messagesRefusedByPeer`` per feed.
    public var refusedByFeed: [FeedID: Int] = [:]
    /// Messages received, verified and stored.
    public var messagesAccepted = 0
    /// Messages received that were already held.
    public var messagesDuplicate = 0
    /// Messages received that failed verification, hashing or decoding.
    public var messagesInvalid = 0
    /// Chunks rejected by reassembly.
    public var chunksRejected = 0
    /// Messages left out of offers because the peer declared it holds them (held ranges).
    public var messagesSkippedAsHeld = 0
    /// Blobs this side asked for.
    public var blobsWanted = 0
    /// Wanted blobs received, verified and stored.
    public var blobsReceived = 0
    /// Blobs sent to the peer.
    public var blobsSent = 0
    /// Bytes of blobs received and stored.
    public var blobBytesReceived = 0

    /// Creates an empty report.
    public init() {}
}
