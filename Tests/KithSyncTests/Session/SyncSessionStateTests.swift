import KithIdentity
import Testing
@testable import KithSync

/// The session's decisions on their own: event sequences in, actions out (no link, no source).
@Suite("SyncSessionState (the session's pure state machine)")
struct SyncSessionStateTests {
    typealias State = SyncSessionState

    /// Real feed, its blinded wire tag, one message of it, and one blob.
    struct Fixture {
        let feed: FeedID
        let wire: SyncFeedTag
        let message: ReceivedMessage
        let sentID: SyncMessageID
        let blob: SyncBlobID

        init() throws {
            feed = try Fixtures.feedID(0xA0)
            wire = try Fixtures.feedTag(0x10)
            let envelope = Fixtures.envelope(200, seed: 1)
            message = ReceivedMessage(messageID: SyncMessageID(envelope: envelope), envelope: envelope)
            sentID = try Fixtures.messageID(0x50)
            blob = SyncBlobID(blob: [1, 2, 3])
        }

        var request: SyncRequest { SyncRequest(feedTag: wire, haveSequence: SyncLimits.haveNothing) }
        var offer: SyncOffer { SyncOffer(feedTag: wire, haveSequence: 0, messageCount: 1) }
    }

    /// Opens a session requesting one feed; the peer requests it too and ends its requests.
    private func opened(_ fixture: Fixture, _ configuration: State.Configuration = .init()) -> State {
        var state = State(configuration: configuration)
        #expect(state.handle(.opened(requests: [fixture.wire: fixture.feed])).isEmpty)
        #expect(state.handle(.received(.request(fixture.request))) == [.forwardRequest(fixture.request)])
        #expect(state.handle(.received(.done)) == [.declareServing, .endRequests])
        return state
    }

    /// Serves one message of the feed and ends serving.
    private func served(_ state: inout State, _ fixture: Fixture) {
        #expect(state.handle(.requestStreamEnded) == [.serve])
        #expect(state.handle(.offered(count: 1)).isEmpty)
        #expect(state.handle(.messageSending(fixture.sentID, feed: fixture.feed, bytes: 10)) == [.observe(.messageSent(fixture.sentID, feed: fixture.feed, bytes: 10))])
        #expect(state.handle(.messageSent).isEmpty)
        #expect(state.handle(.servingEnded) == [.endSendWork])
    }

    /// Receives the peer's offer and its one message, ingests and acknowledges it.
    private func receivedOne(_ state: inout State, _ fixture: Fixture, result: SyncIngestResult = .accepted) {
        #expect(state.handle(.received(.offer(fixture.offer))) == [.observe(.offerReceived(feed: fixture.feed, haveSequence: 0, messageCount: 1))])
        #expect(state.handle(.messageCompleted(fixture.message, feed: fixture.feed)).isEmpty)
        #expect(state.handle(.batchBoundary(pendingRecords: true)).isEmpty)
        #expect(state.handle(.batchBoundary(pendingRecords: false)) == [.ingest([fixture.message])])
        let status: SyncAck.Status = result == .invalid ? .invalid : .ok
        #expect(state.handle(.ingested([fixture.message], [result])) == [
            .observe(.messageReceived(fixture.message, result)),
            .enqueue([.ack(SyncAck(messageID: fixture.message.messageID, status: status))]),
        ])
        #expect(state.handle(.acknowledgementsMayFlush(pendingRecords: true)).isEmpty)
        #expect(state.handle(.acknowledgementsMayFlush(pendingRecords: false)) == [.flush])
        #expect(state.handle(.acknowledgementsMayFlush(pendingRecords: false)).isEmpty)
    }

    @Test("opening, offers, chunk accounting, acknowledgements, then completion and close")
    func completes() throws {
        let fixture = try Fixture()
        var state = opened(fixture)
        #expect(state.report.requestsSent == 1 && state.report.requestsReceived == 1)
        served(&state, fixture)
        #expect(state.handle(.frameDone).isEmpty)
        receivedOne(&state, fixture)
        // Not complete until the peer acknowledged what was offered.
        #expect(state.handle(.frameDone).isEmpty)
        let ack = SyncAck(messageID: fixture.sentID, status: .ok)
        #expect(state.handle(.received(.ack(ack))) == [.recordAcknowledgement(ack)])
        #expect(state.handle(.acknowledgementRecorded(ack)) == [.observe(.acknowledged(ack))])
        #expect(state.handle(.frameDone) == [.finishStreams, .closeLink])
        #expect(state.finished && state.exchangeEnded)
        #expect(state.handle(.frameDone).isEmpty)
        _ = state.handle(.ended)
        #expect(state.report.completed && state.report.interruption == nil)
        #expect(state.report.messagesAccepted == 1 && state.report.messagesSent == 1 && state.report.acknowledgementsReceived == 1)
    }

    @Test("a refusal by the peer is counted per feed and the session does not count as completed")
    func refusals() throws {
        let fixture = try Fixture()
        var state = opened(fixture)
        served(&state, fixture)
        receivedOne(&state, fixture, result: .duplicate)
        let ack = SyncAck(messageID: fixture.sentID, status: .invalid)
        #expect(state.handle(.received(.ack(ack))) == [.recordAcknowledgement(ack)])
        #expect(state.handle(.frameDone) == [.finishStreams, .closeLink])
        #expect(!state.report.completed && state.exchangeEnded)
        #expect(state.report.messagesRefusedByPeer == 1 && state.report.refusedByFeed == [fixture.feed: 1])
        #expect(state.report.messagesDuplicate == 1)
    }

    @Test("protocol violations stop the session and are reported once")
    func violations() throws {
        let fixture = try Fixture()
        var unrequested = opened(fixture)
        let stranger = try Fixtures.feedTag(0x77)
        #expect(unrequested.handle(.received(.offer(SyncOffer(feedTag: stranger, haveSequence: 0, messageCount: 1)))) == [.finishStreams])
        #expect(unrequested.finished && unrequested.report.violation == .unexpectedOffer)

        var twice = opened(fixture)
        _ = twice.handle(.received(.offer(fixture.offer)))
        #expect(twice.handle(.received(.offer(fixture.offer))) == [.finishStreams])
        #expect(twice.report.violation == .unexpectedOffer)

        var unoffered = opened(fixture)
        #expect(unoffered.handle(.messageCompleted(fixture.message, feed: fixture.feed)) == [.finishStreams])
        #expect(unoffered.report.violation == .unofferedMessage)

        var tooMany = opened(fixture)
        _ = tooMany.handle(.received(.offer(fixture.offer)))
        #expect(tooMany.handle(.messageCompleted(fixture.message, feed: fixture.feed)).isEmpty)
        #expect(tooMany.handle(.messageCompleted(fixture.message, feed: fixture.feed)) == [.finishStreams])
        #expect(tooMany.report.violation == .unofferedMessage)

        var late = opened(fixture)
        #expect(late.handle(.received(.request(fixture.request))) == [.finishStreams])
        #expect(late.report.violation == .unexpectedRequest)
        _ = late.handle(.received(.done))
        #expect(late.report.violation == .unexpectedRequest)

        var doubleDone = opened(fixture)
        #expect(doubleDone.handle(.received(.done)) == [.finishStreams])
        #expect(doubleDone.report.violation == .unexpectedDone)

        // Held ranges need the capability, a request, and come before `done`.
        var notNegotiated = State(configuration: .init())
        _ = notNegotiated.handle(.received(.request(fixture.request)))
        #expect(notNegotiated.handle(.received(.held(SyncHeldRanges(feedTag: fixture.wire, ranges: [3...4])))) == [.finishStreams])
        #expect(notNegotiated.report.violation == .unexpectedHeldRanges)
        var negotiated = State(configuration: .init(heldRanges: true))
        _ = negotiated.handle(.received(.request(fixture.request)))
        #expect(negotiated.handle(.received(.held(SyncHeldRanges(feedTag: fixture.wire, ranges: [3...4])))).isEmpty)
        #expect(negotiated.peerHeldRanges(fixture.wire) == [3...4])
        #expect(negotiated.handle(.received(.held(SyncHeldRanges(feedTag: fixture.wire, ranges: [5...6])))) == [.finishStreams])
        #expect(negotiated.report.violation == .unexpectedHeldRanges)

        // Blob records without the capability.
        var noBlobs = opened(fixture)
        #expect(noBlobs.handle(.received(.blobsDone)) == [.finishStreams])
        #expect(noBlobs.report.violation == .unexpectedBlobRecord)
        _ = noBlobs.handle(.ended)
        #expect(noBlobs.report.interruption == nil)
    }

    @Test("unreadable messages are acknowledged invalid and counted; ingest batches at the limit")
    func chunkAccounting() throws {
        let fixture = try Fixture()
        var state = opened(fixture)
        _ = state.handle(.received(.offer(SyncOffer(feedTag: fixture.wire, haveSequence: 0, messageCount: 2000))))
        let bad = try Fixtures.messageID(0x33)
        #expect(state.handle(.messageUnreadable(bad)) == [.enqueue([.ack(SyncAck(messageID: bad, status: .invalid))])])
        #expect(state.handle(.chunkRejected).isEmpty)
        #expect(state.report.chunksRejected == 2 && state.report.messagesInvalid == 1)
        #expect(state.handle(.acknowledgementsMayFlush(pendingRecords: false)) == [.flush])
        for _ in 0..<(SyncLimits.maximumIngestBatch - 1) {
            _ = state.handle(.messageCompleted(fixture.message, feed: fixture.feed))
        }
        #expect(state.handle(.batchBoundary(pendingRecords: true)).isEmpty)
        _ = state.handle(.messageCompleted(fixture.message, feed: fixture.feed))
        let actions = state.handle(.batchBoundary(pendingRecords: true))
        #expect(actions == [.ingest(Array(repeating: fixture.message, count: SyncLimits.maximumIngestBatch))])
        #expect(state.received.isEmpty)
    }

    @Test("a local failure stops everything, drops buffered messages and closes; a link failure is the interruption")
    func failures() throws {
        let fixture = try Fixture()
        var local = opened(fixture)
        _ = local.handle(.received(.offer(fixture.offer)))
        _ = local.handle(.messageCompleted(fixture.message, feed: fixture.feed))
        let failure = SyncSourceError(.ingest, reason: "disk full")
        #expect(local.handle(.localFailure(failure)) == [.finishStreams, .closeLink])
        #expect(local.finished && local.received.isEmpty && local.report.localFailure == failure)
        #expect(local.handle(.requestStreamEnded).isEmpty)
        _ = local.handle(.ended)
        #expect(local.report.interruption == nil && !local.report.completed)

        var dropped = opened(fixture)
        _ = dropped.handle(.received(.offer(fixture.offer)))
        _ = dropped.handle(.messageCompleted(fixture.message, feed: fixture.feed))
        // Complete messages are still ingested when the link drops; their acks are not sent.
        #expect(dropped.handle(.receivePathSendFailed(.authenticationFailed)).isEmpty)
        #expect(dropped.handle(.drain) == [.ingest([fixture.message])])
        #expect(dropped.handle(.ingested([fixture.message], [.accepted])) == [.observe(.messageReceived(fixture.message, .accepted))])
        #expect(dropped.handle(.acknowledgementsMayFlush(pendingRecords: false)).isEmpty)
        #expect(dropped.handle(.receiveFailed(.emptyLinkFrame)) == [.finishStreams])
        #expect(dropped.handle(.requestStreamEnded).isEmpty)
        _ = dropped.handle(.ended)
        #expect(dropped.report.interruption == .authenticationFailed && dropped.report.messagesAccepted == 1)

        var quiet = State(configuration: .init())
        _ = quiet.handle(.ended)
        #expect(quiet.report.interruption == .closed)
    }

    @Test("blob phase: wants once everything arrived, chunks only of wanted blobs, completion after both phases")
    func blobPhase() throws {
        let fixture = try Fixture()
        var state = opened(fixture, .init(blobs: true, maximumBlobLength: 1000))
        let want = SyncBlobWant(blobID: fixture.blob, maximumBytes: 500)
        #expect(state.handle(.received(.blobWant(want))) == [.forwardBlobWant(want)])
        served(&state, fixture)
        receivedOne(&state, fixture)
        _ = state.handle(.received(.ack(SyncAck(messageID: fixture.sentID, status: .ok))))
        #expect(state.handle(.frameDone) == [.chooseBlobWants])
        #expect(state.handle(.frameDone).isEmpty)
        #expect(state.handle(.blobWantsChosen([fixture.blob])) == [
            .sendBlobWants([.blobWant(SyncBlobWant(blobID: fixture.blob, maximumBytes: 1000)), .blobsDone]),
        ])
        #expect(state.handle(.blobWantsSent(error: nil)).isEmpty)
        let chunk = SyncChunk(messageID: fixture.blob.chunkKey, chunkIndex: 0, totalChunks: 1, data: [1, 2, 3])
        #expect(state.handle(.received(.blobChunk(chunk))) == [.reassembleBlob(chunk, fixture.blob)])
        #expect(state.handle(.blobCompleted(fixture.blob, bytes: 3, stored: true)) == [.observe(.blobReceived(fixture.blob, bytes: 3, stored: true))])
        // A late fragment of a resolved blob is ignored; a fragment of an unwanted one is a violation.
        #expect(state.handle(.received(.blobChunk(chunk))).isEmpty)
        #expect(state.handle(.received(.blobsDone)).isEmpty)
        // The peer's want is still being served.
        #expect(state.handle(.frameDone).isEmpty)
        #expect(state.handle(.blobSending(fixture.blob, bytes: 3)) == [.observe(.blobSent(fixture.blob, bytes: 3))])
        #expect(state.handle(.blobSent).isEmpty)
        #expect(state.handle(.peerWantServed) == [.finishStreams, .closeLink])
        #expect(state.report.completed && state.report.blobsReceived == 1 && state.report.blobsSent == 1 && state.report.blobsWanted == 1)

        var unwanted = opened(fixture, .init(blobs: true, maximumBlobLength: 1000))
        #expect(unwanted.handle(.received(.blobChunk(chunk))) == [.finishStreams])
        #expect(unwanted.report.violation == .unexpectedBlobRecord)
        var missing = opened(fixture, .init(blobs: true, maximumBlobLength: 1000))
        _ = missing.handle(.blobWantsChosen([fixture.blob]))
        #expect(missing.handle(.received(.blobMissing(fixture.blob))) == [.observe(.blobUnavailable(fixture.blob))])
        #expect(missing.handle(.received(.blobMissing(fixture.blob))).isEmpty)
        #expect(missing.handle(.received(.blobsDone)).isEmpty)
        #expect(missing.handle(.received(.blobsDone)) == [.finishStreams])
    }
}
