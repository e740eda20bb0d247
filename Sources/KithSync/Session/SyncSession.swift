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
public actor SyncSession {
    private let link: SecureLink
    private let source: any SyncFeedSource
    private let clock: any SyncClock
    private let peer: SyncPeer
    private let options: SyncSessionOptions
    private let heldRangesNegotiated: Bool
    private let blobsNegotiated: Bool
    private var reassembler: MessageReassembler
    private var blobReassembler: MessageReassembler
    private var report = SyncSessionReport()
    /// Blinds feed ids on this link's wire (section 9b); requests, held ranges and offers carry
    /// blinded ids only.
    private let blinding: SyncFeedBlinding
    /// This side's requests: blinded id (as on the wire) → the followed feed it stands for.
    private var requestedFeedsByWireID: [SyncFeedID: SyncFeedID] = [:]
    /// The blinded ids this side requested (offers are checked against them).
    private var requestedFeeds: Set<SyncFeedID> = []
    private var offeredFeeds: Set<SyncFeedID> = []
    /// Messages still expected per offered feed (what the peer's offer announced, minus what
    /// arrived); a message for any other feed is a violation (``SyncSessionViolation/unofferedMessage``).
    private var offeredRemaining: [SyncFeedID: Int] = [:]
    /// The feed of every message this side sent, to count the peer's refusals per feed.
    private var sentFeeds: [SyncMessageID: SyncFeedID] = [:]
    /// True once the exchange ran to its end (``SyncSessionReport/completed`` also needs the peer
    /// to have refused nothing).
    private var exchangeEnded = false
    private var peerRequests: [SyncFeedID: UInt32?] = [:]
    private var peerHeld: [SyncFeedID: [ClosedRange<UInt32>]] = [:]
    private var peerDone = false
    private var allServed = false
    private var messagesOffered = 0
    private var messagesExpected = 0
    private var messagesCompleted = 0
    private var finished = false
    private var acksBuffered = false
    /// Set when sending failed (the link dropped): received frames are still read and ingested,
    /// but nothing more is sent.
    private var sendingBroken = false
    private var received: [ReceivedMessage] = []
    private var linkFailure: SecureLinkError?
    private var requests: AsyncStream<SyncRequest>.Continuation?
    private var requestsOpen = true
    /// True once the peer's `done` handed the send task its requests (with declared send work).
    private var serveDeclared = false
    // Blob phase.
    private var blobPhase = BlobPhase.notStarted
    private var wantsOutstanding: Set<SyncBlobID> = []
    private var wantsAsked: Set<SyncBlobID> = []
    private var peerBlobsDone = false
    private var peerWantsReceived = 0
    private var peerWantsServed = 0
    private var blobWants: AsyncStream<SyncBlobWant>.Continuation?

    private enum BlobPhase { case notStarted, sendingWants, wantsSent }

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
        self.heldRangesNegotiated = capabilities.contains(.heldRanges)
        self.blobsNegotiated = capabilities.contains(.blobs)
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
            await failLocally(error)
            return report
        }
        for feed in feeds { requestedFeedsByWireID[blinding.blind(feed.feedID)] = feed.feedID }
        requestedFeeds = Set(requestedFeedsByWireID.keys)
        report.requestsSent = requestedFeeds.count
        // The opening is sent by the send task while the receive task already reads.
        await link.sendingBegan()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendLoop(stream, feeds: feeds) }
            group.addTask { await self.receiveLoop() }
            group.addTask { await self.blobServeLoop(wantStream) }
        }
        await link.close()
        if !exchangeEnded, report.violation == nil, report.localFailure == nil { report.interruption = linkFailure ?? .closed }
        return report
    }

    // MARK: Sending

    private func sendLoop(_ stream: AsyncStream<SyncRequest>, feeds: [SyncFeedState]) async {
        var opening: [SyncFrame] = []
        if !requestedFeeds.isEmpty {
            var sent: Set<SyncFeedID> = []
            for feed in feeds {
                let wireID = blinding.blind(feed.feedID)
                guard sent.insert(wireID).inserted else { continue }
                opening.append(.request(SyncRequest(feedID: wireID, haveSequence: feed.wireHaveSequence)))
                if heldRangesNegotiated { opening += heldRecords(for: feed, wireID: wireID) }
            }
        }
        opening.append(.done)
        do {
            try await link.send(opening)
        } catch {
            record(error)
            finishStreams()
        }
        await link.sendingEnded()
        var pending: [SyncRequest] = []
        for await request in stream { pending.append(request) }
        // Set (with the declaration) by the receive task when the peer's `done` ended the stream.
        let serving = serveDeclared
        if serving, !finished, linkFailure == nil {
            do {
                try await serve(pending)
            } catch {
                record(error)
                finishStreams()
            }
        }
        allServed = true
        await checkCompletion()
        if serving { await link.sendingEnded() }
    }

    /// The held-ranges records of one request: only ranges above `have_seq`, at most the highest
    /// ``SyncLimits/maximumHeldRangesPerFeed`` of them.
    private func heldRecords(for feed: SyncFeedState, wireID: SyncFeedID) -> [SyncFrame] {
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
        return SyncHeldRanges.records(feedID: wireID, ranges: kept, plaintextCapacity: link.layout.plaintextCapacity).map(SyncFrame.held)
    }

    /// Answers every request with one offer, then sends all offered messages by priority class
    /// (spec 8.5); within a class, in request order and newest first. Envelopes are compressed and
    /// fragmented only when their turn comes, so memory stays proportional to one message.
    private func serve(_ pending: [SyncRequest]) async throws(SecureLinkError) {
        var offers: [SyncFrame] = []
        var queued: [(priority: SyncPriority, order: Int, feed: SyncFeedID, envelope: [UInt8])] = []
        // The peer's requests name blinded ids: match them against the feeds this side can serve.
        var servable: [SyncFeedID: SyncFeedID] = [:]
        do {
            for feed in try await source.servableFeeds(for: peer) { servable[blinding.blind(feed)] = feed }
        } catch {
            return await failLocally(error)
        }
        for request in pending {
            let have: UInt32? = request.wantsEntireFeed ? nil : request.haveSequence
            let batch: SyncFeedBatch?
            // A blinded id matching none of them is a feed this side cannot name: offered empty.
            guard let feed = servable[request.feedID] else {
                offers.append(.offer(SyncOffer(feedID: request.feedID, haveSequence: SyncLimits.haveNothing, messageCount: 0)))
                continue
            }
            do {
                batch = try await source.outgoing(feed: feed, above: have, for: peer)
            } catch where error.feedOnly {
                // This feed cannot be served (for example a self message without its stub): it
                // is offered empty and reported, the rest of the session goes on.
                report.feedsWithheld[feed] = error.reason
                batch = nil
            } catch {
                // Offering nothing would tell the peer this side holds nothing: stop instead.
                return await failLocally(error)
            }
            let held = peerHeld[request.feedID] ?? []
            var count: UInt32 = 0
            for envelope in batch?.envelopes ?? [] where (1...SyncLimits.maximumMessageLength).contains(envelope.bytes.count) {
                if Self.contains(held, envelope.sequence) {
                    report.messagesSkippedAsHeld += 1
                    continue
                }
                queued.append((envelope.priority, queued.count, feed, envelope.bytes))
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
            sentFeeds[id] = message.feed
            options.observer?(.messageSent(id, feed: message.feed, bytes: message.envelope.count))
            try await link.enqueue(chunks.map(SyncFrame.chunk))
            report.messagesSent += 1
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
                    peerWantsServed += 1
                    await checkCompletion()
                } catch {
                    record(error)
                    finishStreams()
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
        options.observer?(.blobSent(want.blobID, bytes: blob.count))
        for chunk in chunks { try await link.enqueue([.blobChunk(chunk)]) }
        report.blobsSent += 1
    }

    /// Starts this side's blob phase once everything the peer offered has arrived: one want per
    /// missing blob, then `blobs done`.
    private func startBlobPhase() async {
        guard blobPhase == .notStarted else { return }
        blobPhase = .sendingWants
        var wants: [SyncBlobID] = []
        if let blobSource = options.blobSource, options.maximumBlobLength > 0 {
            var seen: Set<SyncBlobID> = []
            for id in await blobSource.wantedBlobs(from: peer) where seen.insert(id).inserted {
                wants.append(id)
                if wants.count == SyncLimits.maximumBlobWantsPerSession { break }
            }
        }
        wantsAsked = Set(wants)
        wantsOutstanding = wantsAsked
        report.blobsWanted = wants.count
        let maximum = UInt32(clamping: options.maximumBlobLength)
        var frames = wants.map { SyncFrame.blobWant(SyncBlobWant(blobID: $0, maximumBytes: maximum)) }
        frames.append(.blobsDone)
        do { try await link.send(frames) } catch { record(error) }
        blobPhase = .wantsSent
    }

    private func receiveBlobChunk(_ chunk: SyncChunk) async {
        guard let id = try? SyncBlobID(bytes: chunk.messageID.bytes), wantsAsked.contains(id) else {
            return violate(.unexpectedBlobRecord)
        }
        // Fragments of a blob already resolved (dropped as too large, or answered) are ignored.
        guard wantsOutstanding.contains(id) else { return }
        let now = await clock.now()
        let complete: ReceivedMessage
        do {
            guard let message = try blobReassembler.accept(chunk, now: now) else { return }
            complete = message
        } catch {
            report.chunksRejected += 1
            switch error {
            case .messageTooLarge, .hashMismatch, .tooManyChunks, .totalChunksMismatch:
                blobReassembler.drop(chunk.messageID)
                resolveWant(id)
                options.observer?(.blobUnavailable(id))
            default:
                break
            }
            return
        }
        let stored = await options.blobSource?.storeBlob(complete.envelope, id: id, from: peer) ?? false
        if stored {
            report.blobsReceived += 1
            report.blobBytesReceived += complete.envelope.count
        }
        resolveWant(id)
        options.observer?(.blobReceived(id, bytes: complete.envelope.count, stored: stored))
    }

    private func resolveWant(_ id: SyncBlobID) {
        wantsOutstanding.remove(id)
    }

    // MARK: Receiving

    private func receiveLoop() async {
        while !finished {
            let frame: SyncFrame
            do {
                frame = try await link.receive()
            } catch {
                // Complete messages are still stored (their acks are lost; the next session's
                // have_seq and held ranges cover them). Partial messages and blobs are dropped.
                await ingestReceived()
                record(error)
                finishStreams()
                return
            }
            await handle(frame)
            // Acks wait in the link's buffer until every record of the sealed frame that
            // carried this one was handled, so one sealed frame answers a whole batch.
            // Messages are ingested (one transaction) and acknowledged (one sealed frame) per
            // batch: once every record of the sealed frame that completed them was handled.
            if await !link.hasPendingRecords || received.count >= SyncLimits.maximumIngestBatch {
                await ingestReceived()
            }
            if acksBuffered, await !link.hasPendingRecords {
                acksBuffered = false
                await sendSafely { () async throws(SecureLinkError) in try await self.link.flush() }
            }
            await checkCompletion()
        }
    }

    /// Runs a send from the receive path; a failure stops sending for the rest of the session but
    /// lets the receive loop drain what the transport already delivered.
    private func sendSafely(_ body: () async throws(SecureLinkError) -> Void) async {
        guard !sendingBroken else { return }
        do {
            try await body()
        } catch {
            sendingBroken = true
            record(error)
        }
    }

    private func handle(_ frame: SyncFrame) async {
        switch frame {
        case .request(let request):
            guard !peerDone, report.requestsReceived < SyncLimits.maximumRequestsPerSession else {
                return violate(.unexpectedRequest)
            }
            report.requestsReceived += 1
            peerRequests[request.feedID] = request.wantsEntireFeed ? UInt32?.none : request.haveSequence
            requests?.yield(request)
        case .held(let held):
            acceptHeld(held)
        case .done:
            guard !peerDone else { return violate(.unexpectedDone) }
            peerDone = true
            // The send task serves once the stream ends: declare its work before ending it.
            if requestsOpen {
                requestsOpen = false
                serveDeclared = true
                await link.sendingBegan()
            }
            requests?.finish()
        case .offer(let offer):
            guard requestedFeeds.contains(offer.feedID), !offeredFeeds.contains(offer.feedID) else {
                return violate(.unexpectedOffer)
            }
            offeredFeeds.insert(offer.feedID)
            // Requested, so known: the observer and the per-feed count see the real feed id.
            let feed = requestedFeedsByWireID[offer.feedID] ?? offer.feedID
            offeredRemaining[feed] = Int(offer.messageCount)
            messagesExpected += Int(offer.messageCount)
            options.observer?(.offerReceived(SyncOffer(feedID: feed, haveSequence: offer.haveSequence, messageCount: offer.messageCount)))
        case .ack(let ack):
            report.acknowledgementsReceived += 1
            if ack.status != .ok {
                report.messagesRefusedByPeer += 1
                if let feed = sentFeeds[ack.messageID] { report.refusedByFeed[feed, default: 0] += 1 }
            }
            do {
                try await source.acknowledged(ack.messageID, status: ack.status, by: peer)
            } catch {
                return await failLocally(error)
            }
            options.observer?(.acknowledged(ack))
        case .chunk(let chunk):
            await receive(chunk)
        case .blobWant(let want):
            guard blobsNegotiated, !peerBlobsDone, peerWantsReceived < SyncLimits.maximumBlobWantsPerSession else {
                return violate(.unexpectedBlobRecord)
            }
            peerWantsReceived += 1
            await link.sendingBegan()
            if case .enqueued = blobWants?.yield(want) {} else { await link.sendingEnded() }
        case .blobsDone:
            guard blobsNegotiated, !peerBlobsDone else { return violate(.unexpectedBlobRecord) }
            peerBlobsDone = true
        case .blobChunk(let chunk):
            guard blobsNegotiated else { return violate(.unexpectedBlobRecord) }
            await receiveBlobChunk(chunk)
        case .blobMissing(let id):
            guard blobsNegotiated, wantsAsked.contains(id) else { return violate(.unexpectedBlobRecord) }
            if wantsOutstanding.contains(id) {
                resolveWant(id)
                options.observer?(.blobUnavailable(id))
            }
        }
    }

    /// Records the peer's held ranges for a feed it requested (before its `done`, above its
    /// `have_seq`, ascending across records, bounded).
    private func acceptHeld(_ held: SyncHeldRanges) {
        guard heldRangesNegotiated, !peerDone, let have = peerRequests[held.feedID] else {
            return violate(.unexpectedHeldRanges)
        }
        var known = peerHeld[held.feedID] ?? []
        guard known.count + held.ranges.count <= SyncLimits.maximumHeldRangesPerFeed,
              let first = held.ranges.first,
              have.map({ first.lowerBound > $0 }) ?? true,
              known.last.map({ first.lowerBound > $0.upperBound &+ 1 }) ?? true
        else { return violate(.unexpectedHeldRanges) }
        known += held.ranges
        peerHeld[held.feedID] = known
    }

    private func receive(_ chunk: SyncChunk) async {
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
                await sendSafely { () async throws(SecureLinkError) in try await self.link.enqueue([.ack(SyncAck(messageID: id, status: .invalid))]) }
                acksBuffered = true
            default:
                break
            }
            return
        }
        // Only messages of a feed the peer offered, and no more than it announced (section 9).
        guard let feed = source.feedID(of: message.envelope), let remaining = offeredRemaining[feed], remaining > 0 else {
            return violate(.unofferedMessage)
        }
        offeredRemaining[feed] = remaining - 1
        received.append(message)
    }

    /// Ingests the messages completed since the last call as one batch and buffers their acks.
    private func ingestReceived() async {
        guard !received.isEmpty else { return }
        let batch = received
        received = []
        let results: [SyncIngestResult]
        do {
            results = try await source.ingest(batch, from: peer)
        } catch {
            // Nothing of the batch is acknowledged: the peer keeps it and sends it again later.
            return await failLocally(error)
        }
        var acks: [SyncFrame] = []
        for (index, message) in batch.enumerated() {
            let result = index < results.count ? results[index] : .invalid
            let status: SyncAck.Status
            switch result {
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
            options.observer?(.messageReceived(message, result))
            acks.append(.ack(SyncAck(messageID: message.messageID, status: status)))
        }
        await sendSafely { () async throws(SecureLinkError) in try await self.link.enqueue(acks) }
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
        if blobsNegotiated {
            if blobPhase == .notStarted {
                await startBlobPhase()
                guard !finished else { return }
            }
            guard blobPhase == .wantsSent, wantsOutstanding.isEmpty, peerBlobsDone, peerWantsServed >= peerWantsReceived else { return }
        }
        guard !finished else { return }
        exchangeEnded = true
        report.completed = report.messagesRefusedByPeer == 0
        finished = true
        finishStreams()
        await link.close()
    }

    private func finishStreams() {
        requestsOpen = false
        requests?.finish()
        blobWants?.finish()
    }

    private func record(_ error: SecureLinkError) {
        if linkFailure == nil { linkFailure = error }
    }

    /// Stops the session on a local store failure: nothing more is acknowledged, offered or
    /// ingested, and the link is closed (the peer sees a clean close and keeps its data).
    private func failLocally(_ error: SyncSourceError) async {
        if report.localFailure == nil { report.localFailure = error }
        received = []
        finished = true
        finishStreams()
        await link.close()
    }

    private func violate(_ violation: SyncSessionViolation) {
        if report.violation == nil { report.violation = violation }
        finished = true
        finishStreams()
    }
}
