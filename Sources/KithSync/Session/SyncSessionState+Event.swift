import KithIdentity
extension SyncSessionState {
    /// What happened to a session: a record arrived, an effect the driver ran finished, or a
    /// task reached a point where the session's progress is to be decided.
    enum Event: Sendable {
        /// The followed feeds were read: blinded id (as on the wire) → the feed it stands for.
        case opened(requests: [SyncFeedTag: FeedID])
        /// A record other than a message chunk arrived (``SyncFrame/chunk(_:)`` goes to the
        /// reassembler, whose outcome is reported as ``messageCompleted(_:feed:)`` and friends).
        case received(SyncFrame)
        /// A message was reassembled and verified against its id; `feed` is the feed its bytes name.
        case messageCompleted(ReceivedMessage, feed: FeedID?)
        /// A message failed its hash or its body was invalid: it is acknowledged `invalid`.
        case messageUnreadable(SyncMessageID)
        /// A chunk was rejected without ending a message (limits, duplicates).
        case chunkRejected
        /// Every record of the current sealed frame was handled, or the batch is full:
        /// `pendingRecords` tells whether the link still holds records of that sealed frame.
        case batchBoundary(pendingRecords: Bool)
        /// The receive link failed or closed: complete messages are still ingested first.
        case drain
        /// A batch was ingested with one verdict per message (missing verdicts: invalid).
        case ingested([ReceivedMessage], [SyncIngestResult])
        /// Buffered acknowledgements may leave when no record of the sealed frame remains.
        case acknowledgementsMayFlush(pendingRecords: Bool)
        /// A receive-loop iteration ended.
        case frameDone
        /// The peer's acknowledgement was recorded with the source.
        case acknowledgementRecorded(SyncAck)
        /// Receiving from the link failed.
        case receiveFailed(SecureLinkError)
        /// A send from the receive path failed: nothing more is sent, receiving goes on.
        case receivePathSendFailed(SecureLinkError)
        /// A send of the send task or the blob server failed: the streams end.
        case sendFailed(SecureLinkError)
        /// The local source failed: the session stops.
        case localFailure(SyncSourceError)
        // Serving.
        /// The request stream ended (the peer's `done`, or the session stopping).
        case requestStreamEnded
        /// A requested feed could not be served and was offered empty.
        case feedWithheld(FeedID, reason: String)
        /// An envelope was not offered because the peer declared it held.
        case skippedAsHeld
        /// The offers were queued, announcing `count` messages in all.
        case offered(count: Int)
        /// A message of `feed` is about to be queued (`bytes`: envelope size).
        case messageSending(SyncMessageID, feed: FeedID, bytes: Int)
        /// That message was queued.
        case messageSent
        /// The send task finished serving (or had nothing to serve).
        case servingEnded
        // Blob phase.
        /// The blobs this side wants (already deduplicated and bounded).
        case blobWantsChosen([SyncBlobID])
        /// The wants and `blobs done` were sent (`error`: the send failed).
        case blobWantsSent(error: SecureLinkError?)
        /// A wanted blob arrived complete and verified (`stored`: the blob source kept it).
        case blobCompleted(SyncBlobID, bytes: Int, stored: Bool)
        /// A wanted blob cannot arrive (too large, hash mismatch, too many chunks).
        case blobFailed(SyncBlobID)
        /// A blob chunk was rejected without ending the blob.
        case blobChunkRejected
        /// A blob is about to be queued for the peer (`bytes`: its size).
        case blobSending(SyncBlobID, bytes: Int)
        /// That blob was queued.
        case blobSent
        /// One of the peer's wants was answered (blob or `blob missing`) and flushed.
        case peerWantServed
        /// The session's tasks ended.
        case ended
    }
}
