extension SyncSessionState {
    /// An effect the driver (``SyncSession``) runs, in the order given. Effects that can fail or
    /// produce data report back as an ``Event``.
    enum Action: Hashable, Sendable {
        /// Hands a peer request to the send task.
        case forwardRequest(SyncRequest)
        /// Declares send work on the link (the send task is about to serve).
        case declareServing
        /// Ends the request stream (the send task then serves, or stops).
        case endRequests
        /// Hands a peer's blob want to the blob server (declaring its send work).
        case forwardBlobWant(SyncBlobWant)
        /// Reports progress to the observer.
        case observe(SyncSessionEvent)
        /// Records the peer's acknowledgement with the source, then reports
        /// ``Event/acknowledgementRecorded(_:)`` (or ``Event/localFailure(_:)``).
        case recordAcknowledgement(SyncAck)
        /// Feeds a message chunk to the reassembler.
        case reassemble(SyncChunk)
        /// Feeds a chunk of a wanted blob to the blob reassembler.
        case reassembleBlob(SyncChunk, SyncBlobID)
        /// Queues records from the receive path (acknowledgements); a failure is
        /// ``Event/receivePathSendFailed(_:)``.
        case enqueue([SyncFrame])
        /// Flushes the link from the receive path; a failure is ``Event/receivePathSendFailed(_:)``.
        case flush
        /// Ingests a batch, then reports ``Event/ingested(_:_:)`` (or ``Event/localFailure(_:)``).
        case ingest([ReceivedMessage])
        /// Answers the peer's requests (offers, then chunks by priority).
        case serve
        /// Ends the send work declared for serving.
        case endSendWork
        /// Asks the blob source what to want, then reports ``Event/blobWantsChosen(_:)``.
        case chooseBlobWants
        /// Sends the wants and `blobs done`, then reports ``Event/blobWantsSent(error:)``.
        case sendBlobWants([SyncFrame])
        /// Ends the request and blob-want streams.
        case finishStreams
        /// Closes the link.
        case closeLink
    }
}
