/// What one ``SyncSession`` achieved.
public struct SyncSessionReport: Equatable, Sendable {
    /// True when both sides served every request and every message was acknowledged.
    public var completed = false
    /// Why the session ended early, if it did.
    public var interruption: SecureLinkError?
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
