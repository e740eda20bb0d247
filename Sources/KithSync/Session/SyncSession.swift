/// One sync exchange over an established ``SecureLink`` (spec 8.2), symmetric for both sides.
///
/// Each side sends a ``SyncRequest`` per followed feed, then `done`. Once the peer's `done` arrived
/// it answers every request with one ``SyncOffer`` (message_count 0 when it has nothing or does
/// not share the feed), then sends the offered messages as chunks by ``SyncPriority`` class, within
/// a class in request order and newest first (spec 8.5). Each received message is reassembled,
/// verified against its id, ingested and acknowledged with a ``SyncAck``. A side closes the link once
/// the peer said `done`, every request was served and acknowledged, and every offered message arrived.
///
/// Interrupted sessions resume naturally: the next session's requests carry the contiguous
/// `have_seq`, and the source leaves out messages the peer already acknowledged.
public actor SyncSession {
    private let link: SecureLink
    private let source: any SyncFeedSource
    private let clock: any SyncClock
    private let peer: SyncPeer
    private var reassembler: MessageReassembler
    private var report = SyncSessionReport()
    private var requestedFeeds: Set<SyncFeedID> = []
    private var offeredFeeds: Set<SyncFeedID> = []
    private var peerDone = false
    private var allServed = false
    private var messagesOffered = 0
    private var messagesExpected = 0
    private var messagesCompleted = 0
    private var finished = false
    private var acksBuffered = false
    private var received: [ReceivedMessage] = []
    private var linkFailure: SecureLinkError?
    private var requests: AsyncStream<SyncRequest>.Continuation?

    /// Creates a session; `clock` drives reassembly timeouts.
    public init(link: SecureLink, source: any SyncFeedSource, clock: any SyncClock, limits: ReassemblyLimits = ReassemblyLimits()) {
        self.link = link
        self.source = source
        self.clock = clock
        self.peer = SyncPeer(staticKey: link.peerStaticKey)
        self.reassembler = MessageReassembler(
            limits: limits,
            compressionNegotiated: link.negotiated.capabilities.contains(.zstdEnvelopes),
            dictionaryNegotiated: link.negotiated.capabilities.contains(.zstdEnvelopeDictionary)
        )
    }

    /// Runs the exchange until it completes or the link fails, then closes the link.
    public func run() async -> SyncSessionReport {
        let (stream, continuation) = AsyncStream<SyncRequest>.makeStream()
        requests = continuation
        // Known before any record is read, so an offer is always checked against the full set.
        let feeds = await source.followedFeeds(for: peer)
        requestedFeeds = Set(feeds.map(\.feedID))
        report.requestsSent = requestedFeeds.count
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendLoop(stream, feeds: feeds) }
            group.addTask { await self.receiveLoop() }
        }
        await link.close()
        if !report.completed, report.violation == nil { report.interruption = linkFailure ?? .closed }
        return report
    }

    // MARK: Sending

    private func sendLoop(_ stream: AsyncStream<SyncRequest>, feeds: [SyncFeedState]) async {
        do {
            var opening = requestedFeeds.isEmpty ? [] : feeds.map { SyncFrame.request(SyncRequest(feedID: $0.feedID, haveSequence: $0.wireHaveSequence)) }
            opening.append(.done)
            try await link.send(opening)
            var pending: [SyncRequest] = []
            for await request in stream { pending.append(request) }
            try await serve(pending)
        } catch {
            record(error)
            requests?.finish()
        }
        allServed = true
        await checkCompletion()
    }

    /// Answers every request with one offer, then sends all offered messages by priority class
    /// (spec 8.5); within a class, in request order and newest first. Envelopes are compressed and
    /// fragmented only when their turn comes, so memory stays proportional to one message.
    private func serve(_ pending: [SyncRequest]) async throws(SecureLinkError) {
        var offers: [SyncFrame] = []
        var queued: [(priority: SyncPriority, order: Int, envelope: [UInt8])] = []
        for request in pending {
            let have: UInt32? = request.wantsEntireFeed ? nil : request.haveSequence
            let batch = await source.outgoing(feed: request.feedID, above: have, for: peer)
            var count: UInt32 = 0
            for envelope in batch?.envelopes ?? [] where (1...SyncLimits.maximumMessageLength).contains(envelope.bytes.count) {
                queued.append((envelope.priority, queued.count, envelope.bytes))
                count += 1
            }
            offers.append(.offer(SyncOffer(
                feedID: request.feedID,
                haveSequence: batch?.latestSequence ?? SyncLimits.haveNothing,
                messageCount: count
            )))
        }
        messagesOffered += queued.count
        // Offers and chunks share sealed frames; only full sealed frames leave until the final flush.
        if !offers.isEmpty { try await link.enqueue(offers) }
        queued.sort { ($0.priority, $0.order) < ($1.priority, $1.order) }
        let compression = link.negotiated.capabilities.contains(.zstdEnvelopes)
        let dictionary = compression && link.negotiated.capabilities.contains(.zstdEnvelopeDictionary)
        for message in queued {
            let body = MessageBody.encode(envelope: message.envelope, compressionNegotiated: compression, dictionaryNegotiated: dictionary)
            let id = SyncMessageID(envelope: message.envelope)
            // Cannot fail: the body is non-empty and at most 64 KiB + 5, far below 4096 chunks.
            guard let chunks = try? MessageFragmenter.chunks(messageID: id, body: body, chunkDataLength: link.layout.chunkDataLength) else {
                continue
            }
            try await link.enqueue(chunks.map(SyncFrame.chunk))
            report.messagesSent += 1
        }
        try await link.flush()
    }

    // MARK: Receiving

    private func receiveLoop() async {
        while !finished {
            let frame: SyncFrame
            do {
                frame = try await link.receive()
                try await handle(frame)
                // Acks wait in the link's buffer until every record of the sealed frame that
                // carried this one was handled, so one sealed frame answers a whole batch.
                // Messages are ingested (one transaction) and acknowledged (one sealed frame) per
                // batch: once every record of the sealed frame that completed them was handled.
                if await !link.hasPendingRecords || received.count >= SyncLimits.maximumIngestBatch {
                    try await ingestReceived()
                }
                if acksBuffered, await !link.hasPendingRecords {
                    acksBuffered = false
                    try await link.flush()
                }
            } catch {
                // Complete messages are still stored (their acks are lost; the next session's
                // have_seq or a duplicate ack covers them). The serving loop finishes what it can.
                try? await ingestReceived()
                record(error)
                requests?.finish()
                return
            }
            await checkCompletion()
        }
    }

    private func handle(_ frame: SyncFrame) async throws(SecureLinkError) {
        switch frame {
        case .request(let request):
            guard !peerDone, report.requestsReceived < SyncLimits.maximumRequestsPerSession else {
                return violate(.unexpectedRequest)
            }
            report.requestsReceived += 1
            requests?.yield(request)
        case .done:
            guard !peerDone else { return violate(.unexpectedDone) }
            peerDone = true
            requests?.finish()
        case .offer(let offer):
            guard requestedFeeds.contains(offer.feedID), !offeredFeeds.contains(offer.feedID) else {
                return violate(.unexpectedOffer)
            }
            offeredFeeds.insert(offer.feedID)
            messagesExpected += Int(offer.messageCount)
        case .ack(let ack):
            report.acknowledgementsReceived += 1
            await source.acknowledged(ack.messageID, status: ack.status, by: peer)
        case .chunk(let chunk):
            try await receive(chunk)
        }
    }

    private func receive(_ chunk: SyncChunk) async throws(SecureLinkError) {
        let now = await clock.now()
        let message: ReceivedMessage
        do {
            guard let complete = try reassembler.accept(chunk, now: now) else { return }
            message = complete
        } catch {
            report.chunksRejected += 1
            switch error {
            case .hashMismatch(let id), .invalidBody(let id, _):
                report.messagesInvalid += 1
                messagesCompleted += 1
                try await link.enqueue([.ack(SyncAck(messageID: id, status: .invalid))])
                acksBuffered = true
            default:
                break
            }
            return
        }
        received.append(message)
    }

    /// Ingests the messages completed since the last call as one batch and buffers their acks.
    private func ingestReceived() async throws(SecureLinkError) {
        guard !received.isEmpty else { return }
        let batch = received
        received = []
        let results = await source.ingest(batch, from: peer)
        var acks: [SyncFrame] = []
        for (index, message) in batch.enumerated() {
            let status: SyncAck.Status
            switch index < results.count ? results[index] : .invalid {
            case .accepted:
                report.messagesAccepted += 1
                status = .ok
            case .duplicate:
                report.messagesDuplicate += 1
                status = .ok
            case .invalid:
                report.messagesInvalid += 1
                status = .invalid
            }
            messagesCompleted += 1
            acks.append(.ack(SyncAck(messageID: message.messageID, status: status)))
        }
        try await link.enqueue(acks)
        acksBuffered = true
    }

    // MARK: Completion

    private func checkCompletion() async {
        guard !finished,
              peerDone, allServed,
              report.acknowledgementsReceived >= messagesOffered,
              offeredFeeds.count == requestedFeeds.count,
              messagesCompleted >= messagesExpected
        else { return }
        report.completed = true
        finished = true
        requests?.finish()
        await link.close()
    }

    private func record(_ error: SecureLinkError) {
        if linkFailure == nil { linkFailure = error }
    }

    private func violate(_ violation: SyncSessionViolation) {
        if report.violation == nil { report.violation = violation }
        finished = true
        requests?.finish()
    }
}
