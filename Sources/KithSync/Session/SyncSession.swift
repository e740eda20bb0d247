import KithIdentity

/// One sync exchange over an established ``SecureLink`` (spec 8.2), symmetric for both sides.
///
/// Feed ids on this wire are blinded per link (``SyncFeedBlinding``, docs/sync.md 9b).
/// Each side sends a ``SyncRequest`` per followed feed (each followed by ``SyncHeldRanges`` when
/// it holds entries ahead of a gap and ``SyncCapabilities/heldRanges`` was negotiated), then
/// `done`. Once the peer's `done` arrived it answers every request with one ``SyncOffer``
/// (message_count 0 when it has nothing or does not share the feed), then sends the offered
/// messages as chunks by ``SyncPriority`` class, within a class in request order and newest first
/// (spec 8.5), leaving out what the peer declared held. Each received message is reassembled,
/// verified against its id, ingested and acknowledged with a ``SyncAck``.
///
/// With ``SyncCapabilities/blobs`` negotiated, a blob phase follows (blobs go last): once a side
/// has everything the peer offered, it sends a ``SyncBlobWant`` per missing blob and `blobs done`;
/// the peer answers each want with the blob's chunks or `blob missing`. Blobs are never
/// compressed, bounded in size, verified by hash and stored only when complete.
///
/// A side closes the link once both phases are complete on its side. Interrupted sessions resume
/// exactly: the next session's requests carry the contiguous `have_seq` plus the held ranges.
///
/// Every decision (what a record means, what is a violation, when to ingest, acknowledge, serve,
/// start the blob phase or complete) is taken by ``SyncSessionState``, a pure value this actor
/// drives: its three tasks (receive loop, send task, blob server) report events and run the
/// actions the state returns.
public actor SyncSession {
    private let link: SecureLink
    private let source: any SyncFeedSource
    private let clock: any SyncClock
    private let peer: SyncPeer
    private let options: SyncSessionOptions
    private var reassembler: MessageReassembler
    private var blobReassembler: MessageReassembler
    /// Blinds feed ids on this link's wire (section 9b); requests, held ranges and offers carry
    /// blinded ids only.
    private let blinding: SyncFeedBlinding
    /// The decisions and the report.
    private var state: SyncSessionState
    /// The peer's requests, collected by the send task until the stream ends.
    private var collectedRequests: [SyncRequest] = []
    private var requests: AsyncStream<SyncRequest>.Continuation?
    private var blobWants: AsyncStream<SyncBlobWant>.Continuation?

    /// Creates a session; `clock` drives reassembly timeouts.
    public init(
        link: SecureLink,
        source: any SyncFeedSource,
        clock: any SyncClock,
        limits: ReassemblyLimits = ReassemblyLimits(),
        options: SyncSessionOptions = SyncSessionOptions()
    ) {
        self.link = link
        self.source = source
        self.clock = clock
        self.options = options
        self.peer = SyncPeer(staticKey: link.peerStaticKey)
        self.blinding = SyncFeedBlinding(link: link)
        let capabilities = link.negotiated.capabilities
        self.state = SyncSessionState(configuration: SyncSessionState.Configuration(
            heldRanges: capabilities.contains(.heldRanges),
            blobs: capabilities.contains(.blobs),
            maximumBlobLength: options.maximumBlobLength
        ))
        self.reassembler = MessageReassembler(
            limits: limits,
            compressionNegotiated: capabilities.contains(.zstdEnvelopes),
            dictionaryNegotiated: capabilities.contains(.zstdEnvelopeDictionary)
        )
        let blobLimit = max(1, options.maximumBlobLength)
        self.blobReassembler = MessageReassembler(limits: ReassemblyLimits(
            maximumConcurrentReassemblies: 2,
            maximumBufferedBytes: blobLimit * 2,
            maximumBodyLength: blobLimit,
            maximumChunksPerMessage: SyncLimits.maximumChunksPerBlob,
            inactivityTimeout: limits.inactivityTimeout
        ))
    }

    /// Runs the exchange until it completes or the link fails, then closes the link.
    public func run() async -> SyncSessionReport {
        let (stream, continuation) = AsyncStream<SyncRequest>.makeStream()
        requests = continuation
        let (wantStream, wantContinuation) = AsyncStream<SyncBlobWant>.makeStream()
        blobWants = wantContinuation
        // Known before any record is read, so an offer is always checked against the full set.
        let feeds: [SyncFeedState]
        do {
            feeds = try await source.followedFeeds(for: peer)
        } catch {
            await apply(.localFailure(error))
            return state.report
        }
        var requested: [SyncFeedTag: FeedID] = [:]
        for feed in feeds { requested[blinding.blind(feed.feedID)] = feed.feedID }
        await apply(.opened(requests: requested))
        // The opening is sent by the send task while the receive task already reads.
        await link.sendingBegan()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendLoop(stream, feeds: feeds) }
            group.addTask { await self.receiveLoop() }
            group.addTask { await self.blobServeLoop(wantStream) }
        }
        await link.close()
        await apply(.ended)
        return state.report
    }

    // MARK: Driving the state

    /// Hands `event` to the state and runs the actions it returns, in order.
    private func apply(_ event: SyncSessionState.Event) async {
        for action in state.handle(event) { await perform(action) }
    }

    private func perform(_ action: SyncSessionState.Action) async {
        switch action {
        case .forwardRequest(let request):
            requests?.yield(request)
        case .declareServing:
            await link.sendingBegan()
        case .endRequests:
            requests?.finish()
        case .forwardBlobWant(let want):
            await link.sendingBegan()
            if case .enqueued = blobWants?.yield(want) {} else { await link.sendingEnded() }
        case .observe(let event):
            options.observer?(event)
        case .recordAcknowledgement(let ack):
            do {
                try await source.acknowledged(ack.messageID, status: ack.status, by: peer)
            } catch {
                return await apply(.localFailure(error))
            }
            await apply(.acknowledgementRecorded(ack))
        case .reassemble(let chunk):
            await reassemble(chunk)
        case .reassembleBlob(let chunk, let id):
            await reassembleBlob(chunk, id: id)
        case .enqueue(let frames):
            await sendSafely { () async throws(SecureLinkError) in try await self.link.enqueue(frames) }
        case .flush:
            await sendSafely { () async throws(SecureLinkError) in try await self.link.flush() }
        case .ingest(let batch):
            let results: [SyncIngestResult]
            do {
                results = try await source.ingest(batch, from: peer)
            } catch {
                // Nothing of the batch is acknowledged: the peer keeps it and sends it again later.
                return await apply(.localFailure(error))
            }
            await apply(.ingested(batch, results))
        case .serve:
            do {
                try await serve(collectedRequests)
            } catch {
                await apply(.sendFailed(error))
            }
        case .endSendWork:
            await link.sendingEnded()
        case .chooseBlobWants:
            await apply(.blobWantsChosen(await chooseBlobWants()))
        case .sendBlobWants(let frames):
            do {
                try await link.send(frames)
                await apply(.blobWantsSent(error: nil))
            } catch {
                await apply(.blobWantsSent(error: error))
            }
        case .finishStreams:
            requests?.finish()
            blobWants?.finish()
        case .closeLink:
            await link.close()
        }
    }

    /// Runs a send from the receive path; a failure stops sending for the rest of the session but
    /// lets the receive loop drain what the transport already delivered.
    private func sendSafely(_ body: () async throws(SecureLinkError) -> Void) async {
        guard !state.sendingBroken else { return }
        do {
            try await body()
        } catch {
            await apply(.receivePathSendFailed(error))
        }
    }

    // MARK: Sending

    private func sendLoop(_ stream: AsyncStream<SyncRequest>, feeds: [SyncFeedState]) async {
        var opening: [SyncFrame] = []
        if !state.requestedFeedsByTag.isEmpty {
            var sent: Set<SyncFeedTag> = []
            for feed in feeds {
                let tag = blinding.blind(feed.feedID)
                guard sent.insert(tag).inserted else { continue }
                opening.append(.request(SyncRequest(feedTag: tag, haveSequence: feed.wireHaveSequence)))
                if state.configuration.heldRanges { opening += heldRecords(for: feed, tag: tag) }
            }
        }
        opening.append(.done)
        do {
            try await link.send(opening)
        } catch {
            await apply(.sendFailed(error))
        }
        await link.sendingEnded()
        for await request in stream { collectedRequests.append(request) }
        // Serves when the peer's `done` ended the stream (with the declaration) and nothing stopped.
        await apply(.requestStreamEnded)
        await apply(.servingEnded)
    }

    /// The held-ranges records of one request: only ranges above `have_seq`, at most the highest
    /// ``SyncLimits/maximumHeldRangesPerFeed`` of them.
    private func heldRecords(for feed: SyncFeedState, tag: SyncFeedTag) -> [SyncFrame] {
        let floor = feed.haveSequence
        var ranges: [ClosedRange<UInt32>] = []
        for range in feed.heldRanges where range.upperBound != SyncLimits.haveNothing {
            let lower = floor.map { max(range.lowerBound, $0 &+ 1) } ?? range.lowerBound
            guard lower <= range.upperBound else { continue }
            ranges.append(lower...range.upperBound)
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        let kept = Array(merged.suffix(SyncLimits.maximumHeldRangesPerFeed))
        return SyncHeldRanges.records(feedTag: tag, ranges: kept, plaintextCapacity: link.layout.plaintextCapacity).map(SyncFrame.held)
    }

    /// Answers every request with one offer, then sends all offered messages by priority class
    /// (spec 8.5); within a class, in request order and newest first. Envelopes are compressed and
    /// fragmented only when their turn comes, so memory stays proportional to one message.
    private func serve(_ pending: [SyncRequest]) async throws(SecureLinkError) {
        var offers: [SyncFrame] = []
        var queued: [(priority: SyncPriority, order: Int, feed: FeedID, envelope: [UInt8])] = []
        // The peer's requests name blinded ids: match them against the feeds this side can serve.
        var servable: [SyncFeedTag: FeedID] = [:]
        do {
            for feed in try await source.servableFeeds(for: peer) { servable[blinding.blind(feed)] = feed }
        } catch {
            return await apply(.localFailure(error))
        }
        for request in pending {
            let have: UInt32? = request.wantsEntireFeed ? nil : request.haveSequence
            let batch: SyncFeedBatch?
            // A blinded id matching none of them is a feed this side cannot name: offered empty.
            guard let feed = servable[request.feedTag] else {
                offers.append(.offer(SyncOffer(feedTag: request.feedTag, haveSequence: SyncLimits.haveNothing, messageCount: 0)))
                continue
            }
            do {
                batch = try await source.outgoing(feed: feed, above: have, for: peer)
            } catch where error.feedOnly {
                // This feed cannot be served (for example a self message without its stub): it
                // is offered empty and reported, the rest of the session goes on.
                await apply(.feedWithheld(feed, reason: error.reason))
                batch = nil
            } catch {
                // Offering nothing would tell the peer this side holds nothing: stop instead.
                return await apply(.localFailure(error))
            }
            let held = state.peerHeldRanges(request.feedTag)
            var count: UInt32 = 0
            for envelope in batch?.envelopes ?? [] where (1...SyncLimits.maximumMessageLength).contains(envelope.bytes.count) {
                if Self.contains(held, envelope.sequence) {
                    await apply(.skippedAsHeld)
                    continue
                }
                queued.append((envelope.priority, queued.count, feed, envelope.bytes))
                count += 1
            }
            offers.append(.offer(SyncOffer(
                feedTag: request.feedTag,
                haveSequence: batch?.latestSequence ?? SyncLimits.haveNothing,
                messageCount: count
            )))
        }
        await apply(.offered(count: queued.count))
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
            await apply(.messageSending(id, feed: message.feed, bytes: message.envelope.count))
            try await link.enqueue(chunks.map(SyncFrame.chunk))
            await apply(.messageSent)
        }
        try await link.flush()
    }

    /// Binary search in ascending, non-overlapping ranges.
    static func contains(_ ranges: [ClosedRange<UInt32>], _ sequence: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < sequence { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(sequence)
    }

    // MARK: Blob phase

    /// Serves the peer's blob wants one at a time, in arrival order: the blob's chunks, or
    /// `blob missing` when it is not held here or larger than either side accepts.
    private func blobServeLoop(_ wants: AsyncStream<SyncBlobWant>) async {
        var broken = false
        for await want in wants {
            // Every want was declared as send work when it was handed over; each is ended,
            // served or not.
            if !broken {
                do {
                    try await serveBlob(want)
                    try await link.flush()
                    await apply(.peerWantServed)
                } catch {
                    await apply(.sendFailed(error))
                    broken = true
                }
            }
            await link.sendingEnded()
        }
    }

    private func serveBlob(_ want: SyncBlobWant) async throws(SecureLinkError) {
        let limit = min(Int(want.maximumBytes), options.maximumBlobLength)
        guard let source = options.blobSource,
              let blob = await source.blob(want.blobID, for: peer),
              (1...max(1, limit)).contains(blob.count),
              SyncBlobID(blob: blob) == want.blobID,
              let chunks = try? MessageFragmenter.chunks(
                  messageID: want.blobID.chunkKey, body: blob, chunkDataLength: link.layout.chunkDataLength,
                  maximumBodyLength: limit, maximumChunks: SyncLimits.maximumChunksPerBlob
              )
        else {
            try await link.enqueue([.blobMissing(want.blobID)])
            return
        }
        await apply(.blobSending(want.blobID, bytes: blob.count))
        for chunk in chunks { try await link.enqueue([.blobChunk(chunk)]) }
        await apply(.blobSent)
    }

    /// The blobs this side wants from the peer: missing ones, deduplicated, at most
    /// ``SyncLimits/maximumBlobWantsPerSession``.
    private func chooseBlobWants() async -> [SyncBlobID] {
        guard let blobSource = options.blobSource, options.maximumBlobLength > 0 else { return [] }
        var wants: [SyncBlobID] = []
        var seen: Set<SyncBlobID> = []
        for id in await blobSource.wantedBlobs(from: peer) where seen.insert(id).inserted {
            wants.append(id)
            if wants.count == SyncLimits.maximumBlobWantsPerSession { break }
        }
        return wants
    }

    private func reassembleBlob(_ chunk: SyncChunk, id: SyncBlobID) async {
        let now = await clock.now()
        let complete: ReceivedMessage
        do {
            guard let message = try blobReassembler.accept(chunk, now: now) else { return }
            complete = message
        } catch {
            switch error {
            case .messageTooLarge, .hashMismatch, .tooManyChunks, .totalChunksMismatch:
                blobReassembler.drop(chunk.messageID)
                await apply(.blobFailed(id))
            default:
                await apply(.blobChunkRejected)
            }
            return
        }
        let stored = await options.blobSource?.storeBlob(complete.envelope, id: id, from: peer) ?? false
        await apply(.blobCompleted(id, bytes: complete.envelope.count, stored: stored))
    }

    // MARK: Receiving

    private func receiveLoop() async {
        while !state.finished {
            let frame: SyncFrame
            do {
                frame = try await link.receive()
            } catch {
                // Complete messages are still stored (their acks are lost; the next session's
                // have_seq and held ranges cover them). Partial messages and blobs are dropped.
                await apply(.drain)
                await apply(.receiveFailed(error))
                return
            }
            await apply(.received(frame))
            // Messages are ingested (one transaction) and acknowledged (one sealed frame) per
            // batch: once every record of the sealed frame that completed them was handled.
            await apply(.batchBoundary(pendingRecords: await link.hasPendingRecords))
            // Acks wait in the link's buffer until every record of the sealed frame that
            // carried this one was handled, so one sealed frame answers a whole batch.
            await apply(.acknowledgementsMayFlush(pendingRecords: await link.hasPendingRecords))
            await apply(.frameDone)
        }
    }

    private func reassemble(_ chunk: SyncChunk) async {
        let now = await clock.now()
        let message: ReceivedMessage
        do {
            guard let complete = try reassembler.accept(chunk, now: now) else { return }
            message = complete
        } catch {
            switch error {
            case .hashMismatch(let id), .invalidBody(let id, _):
                await apply(.messageUnreadable(id))
            default:
                await apply(.chunkRejected)
            }
            return
        }
        await apply(.messageCompleted(message, feed: source.feedID(of: message.envelope)))
    }
}
