import KithIdentity

/// The decisions of a ``SyncSession`` as a pure value: every record received, every effect
/// finished and every task checkpoint is an ``Event``; ``handle(_:)`` updates the state (and the
/// report) and returns the ``Action``s the session runs, in order. No I/O, no clock, no tasks:
/// the actor owns the link, the source, the reassemblers and the streams, and does what the
/// state says.
///
/// The protocol rules it enforces are those of docs/sync.md: requests and held ranges only
/// before the peer's `done`; one offer per requested feed; messages only of offered feeds and no
/// more than announced; blob records only when negotiated and wanted. Completion needs the
/// peer's `done`, this side's serving ended, every offered message acknowledged, every request
/// offered, every announced message completed and (with blobs) both blob phases finished.
struct SyncSessionState: Sendable {
    /// What the link negotiated and the session allows.
    struct Configuration: Hashable, Sendable {
        /// ``SyncCapabilities/heldRanges`` was negotiated.
        var heldRanges: Bool
        /// ``SyncCapabilities/blobs`` was negotiated.
        var blobs: Bool
        /// The largest blob this side asks for (``SyncSessionOptions/maximumBlobLength``).
        var maximumBlobLength: Int

        /// Creates a configuration.
        init(heldRanges: Bool = false, blobs: Bool = false, maximumBlobLength: Int = 0) {
            self.heldRanges = heldRanges
            self.blobs = blobs
            self.maximumBlobLength = maximumBlobLength
        }
    }

    /// Where this side's blob phase is.
    enum BlobPhase: Hashable, Sendable { case notStarted, choosingWants, wantsSent }

    let configuration: Configuration
    /// What the session did so far; final once ``finished`` and the tasks ended (``Event/ended``).
    private(set) var report = SyncSessionReport()
    /// True once the session stopped (completed, violated, failed locally): nothing more is read.
    private(set) var finished = false
    /// True once the exchange ran to its end.
    private(set) var exchangeEnded = false
    /// The first link failure.
    private(set) var linkFailure: SecureLinkError?
    /// Set when a send from the receive path failed: frames are still read, nothing more is sent.
    private(set) var sendingBroken = false
    /// Messages completed since the last ingest.
    private(set) var received: [ReceivedMessage] = []
    /// The blob phase.
    private(set) var blobPhase = BlobPhase.notStarted
    /// This side's requests: feed tag (as on the wire) → the followed feed it stands for.
    private(set) var requestedFeedsByTag: [SyncFeedTag: FeedID] = [:]
    private var offeredFeeds: Set<SyncFeedTag> = []
    /// Messages still expected per offered (real) feed.
    private var offeredRemaining: [FeedID: Int] = [:]
    private var sentFeeds: [SyncMessageID: FeedID] = [:]
    private var peerRequests: [SyncFeedTag: UInt32?] = [:]
    private var peerHeld: [SyncFeedTag: [ClosedRange<UInt32>]] = [:]
    private var peerDone = false
    private var allServed = false
    private var messagesOffered = 0
    private var messagesExpected = 0
    private var messagesCompleted = 0
    private var acksBuffered = false
    private var requestsOpen = true
    /// True once the peer's `done` declared send work for serving.
    private var serveDeclared = false
    /// Whether the send task serves (decided when the request stream ended).
    private var serving = false
    private var wantsOutstanding: Set<SyncBlobID> = []
    private var wantsAsked: Set<SyncBlobID> = []
    private var peerBlobsDone = false
    private var peerWantsReceived = 0
    private var peerWantsServed = 0

    /// A state before anything happened.
    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The held ranges the peer declared for a feed it requested (by its tag), ascending.
    func peerHeldRanges(_ tag: SyncFeedTag) -> [ClosedRange<UInt32>] { peerHeld[tag] ?? [] }

    /// The feed tags this side requested.
    var requestedFeeds: Dictionary<SyncFeedTag, FeedID>.Keys { requestedFeedsByTag.keys }

    /// Applies `event` and returns what the session does next, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .opened(let requests):
            requestedFeedsByTag = requests
            report.requestsSent = requests.count
            return []
        case .received(let frame):
            return receive(frame)
        case .messageCompleted(let message, let feed):
            // Only messages of a feed the peer offered, and no more than it announced (section 9).
            guard let feed, let remaining = offeredRemaining[feed], remaining > 0 else { return violate(.unofferedMessage) }
            offeredRemaining[feed] = remaining - 1
            received.append(message)
            return []
        case .messageUnreadable(let id):
            report.chunksRejected += 1
            report.messagesInvalid += 1
            messagesCompleted += 1
            acksBuffered = true
            return sendingBroken ? [] : [.enqueue([.ack(SyncAck(messageID: id, status: .invalid))])]
        case .chunkRejected:
            report.chunksRejected += 1
            return []
        case .batchBoundary(let pendingRecords):
            guard !pendingRecords || received.count >= SyncLimits.maximumIngestBatch else { return [] }
            return takeBatch()
        case .drain:
            return takeBatch()
        case .ingested(let batch, let results):
            return ingested(batch, results)
        case .acknowledgementsMayFlush(let pendingRecords):
            guard acksBuffered, !pendingRecords else { return [] }
            acksBuffered = false
            return sendingBroken ? [] : [.flush]
        case .frameDone:
            return completion()
        case .acknowledgementRecorded(let ack):
            return [.observe(.acknowledged(ack))]
        case .receiveFailed(let error):
            record(error)
            return finishStreams()
        case .receivePathSendFailed(let error):
            sendingBroken = true
            record(error)
            return []
        case .sendFailed(let error):
            record(error)
            return finishStreams()
        case .localFailure(let error):
            if report.localFailure == nil { report.localFailure = error }
            received = []
            finished = true
            return finishStreams() + [.closeLink]
        case .requestStreamEnded:
            serving = serveDeclared
            return serving && !finished && linkFailure == nil ? [.serve] : []
        case .feedWithheld(let feed, let reason):
            report.feedsWithheld[feed] = reason
            return []
        case .skippedAsHeld:
            report.messagesSkippedAsHeld += 1
            return []
        case .offered(let count):
            messagesOffered += count
            return []
        case .messageSending(let id, let feed, let bytes):
            sentFeeds[id] = feed
            return [.observe(.messageSent(id, feed: feed, bytes: bytes))]
        case .messageSent:
            report.messagesSent += 1
            return []
        case .servingEnded:
            allServed = true
            return completion() + (serving ? [.endSendWork] : [])
        case .blobWantsChosen(let wants):
            wantsAsked = Set(wants)
            wantsOutstanding = wantsAsked
            report.blobsWanted = wants.count
            let maximum = UInt32(clamping: configuration.maximumBlobLength)
            var frames = wants.map { SyncFrame.blobWant(SyncBlobWant(blobID: $0, maximumBytes: maximum)) }
            frames.append(.blobsDone)
            return [.sendBlobWants(frames)]
        case .blobWantsSent(let error):
            if let error { record(error) }
            blobPhase = .wantsSent
            return completion()
        case .blobCompleted(let id, let bytes, let stored):
            if stored {
                report.blobsReceived += 1
                report.blobBytesReceived += bytes
            }
            wantsOutstanding.remove(id)
            return [.observe(.blobReceived(id, bytes: bytes, stored: stored))]
        case .blobFailed(let id):
            report.chunksRejected += 1
            wantsOutstanding.remove(id)
            return [.observe(.blobUnavailable(id))]
        case .blobChunkRejected:
            report.chunksRejected += 1
            return []
        case .blobSending(let id, let bytes):
            return [.observe(.blobSent(id, bytes: bytes))]
        case .blobSent:
            report.blobsSent += 1
            return []
        case .peerWantServed:
            peerWantsServed += 1
            return completion()
        case .ended:
            if !exchangeEnded, report.violation == nil, report.localFailure == nil { report.interruption = linkFailure ?? .closed }
            return []
        }
    }

    // MARK: Records

    private mutating func receive(_ frame: SyncFrame) -> [Action] {
        switch frame {
        case .request(let request):
            guard !peerDone, report.requestsReceived < SyncLimits.maximumRequestsPerSession else { return violate(.unexpectedRequest) }
            report.requestsReceived += 1
            peerRequests[request.feedTag] = request.wantsEntireFeed ? UInt32?.none : request.haveSequence
            return [.forwardRequest(request)]
        case .held(let held):
            return acceptHeld(held)
        case .done:
            guard !peerDone else { return violate(.unexpectedDone) }
            peerDone = true
            // The send task serves once the stream ends: declare its work before ending it.
            var actions: [Action] = []
            if requestsOpen {
                requestsOpen = false
                serveDeclared = true
                actions.append(.declareServing)
            }
            return actions + [.endRequests]
        case .offer(let offer):
            // Requested, so known: the observer and the per-feed count see the real feed id.
            guard let feed = requestedFeedsByTag[offer.feedTag], !offeredFeeds.contains(offer.feedTag) else { return violate(.unexpectedOffer) }
            offeredFeeds.insert(offer.feedTag)
            offeredRemaining[feed] = Int(offer.messageCount)
            messagesExpected += Int(offer.messageCount)
            return [.observe(.offerReceived(feed: feed, haveSequence: offer.haveSequence, messageCount: offer.messageCount))]
        case .ack(let ack):
            report.acknowledgementsReceived += 1
            if ack.status != .ok {
                report.messagesRefusedByPeer += 1
                if let feed = sentFeeds[ack.messageID] { report.refusedByFeed[feed, default: 0] += 1 }
            }
            return [.recordAcknowledgement(ack)]
        case .chunk(let chunk):
            return [.reassemble(chunk)]
        case .blobWant(let want):
            guard configuration.blobs, !peerBlobsDone, peerWantsReceived < SyncLimits.maximumBlobWantsPerSession else {
                return violate(.unexpectedBlobRecord)
            }
            peerWantsReceived += 1
            return [.forwardBlobWant(want)]
        case .blobsDone:
            guard configuration.blobs, !peerBlobsDone else { return violate(.unexpectedBlobRecord) }
            peerBlobsDone = true
            return []
        case .blobChunk(let chunk):
            guard configuration.blobs, let id = try? SyncBlobID(bytes: chunk.messageID.bytes), wantsAsked.contains(id) else {
                return violate(.unexpectedBlobRecord)
            }
            // Fragments of a blob already resolved (dropped as too large, or answered) are ignored.
            return wantsOutstanding.contains(id) ? [.reassembleBlob(chunk, id)] : []
        case .sideChunk:
            return violate(.unexpectedSideRecord)
        case .blobMissing(let id):
            guard configuration.blobs, wantsAsked.contains(id) else { return violate(.unexpectedBlobRecord) }
            guard wantsOutstanding.remove(id) != nil else { return [] }
            return [.observe(.blobUnavailable(id))]
        }
    }

    /// Records the peer's held ranges for a feed it requested (before its `done`, above its
    /// `have_seq`, ascending across records, bounded).
    private mutating func acceptHeld(_ held: SyncHeldRanges) -> [Action] {
        guard configuration.heldRanges, !peerDone, let have = peerRequests[held.feedTag] else { return violate(.unexpectedHeldRanges) }
        var known = peerHeld[held.feedTag] ?? []
        guard known.count + held.ranges.count <= SyncLimits.maximumHeldRangesPerFeed,
              let first = held.ranges.first,
              have.map({ first.lowerBound > $0 }) ?? true,
              known.last.map({ first.lowerBound > $0.upperBound &+ 1 }) ?? true
        else { return violate(.unexpectedHeldRanges) }
        known += held.ranges
        peerHeld[held.feedTag] = known
        return []
    }

    // MARK: Ingest

    private mutating func takeBatch() -> [Action] {
        guard !received.isEmpty else { return [] }
        let batch = received
        received = []
        return [.ingest(batch)]
    }

    private mutating func ingested(_ batch: [ReceivedMessage], _ results: [SyncIngestResult]) -> [Action] {
        var actions: [Action] = []
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
            actions.append(.observe(.messageReceived(message, result)))
            acks.append(.ack(SyncAck(messageID: message.messageID, status: status)))
        }
        if !sendingBroken { actions.append(.enqueue(acks)) }
        acksBuffered = true
        return actions
    }

    // MARK: Completion

    /// Decides whether the session moves on: starts this side's blob phase, or completes.
    private mutating func completion() -> [Action] {
        guard !finished,
              peerDone, allServed,
              report.acknowledgementsReceived >= messagesOffered,
              offeredFeeds.count == requestedFeedsByTag.count,
              messagesCompleted >= messagesExpected
        else { return [] }
        if configuration.blobs {
            switch blobPhase {
            case .notStarted:
                blobPhase = .choosingWants
                return [.chooseBlobWants]
            case .choosingWants:
                return []
            case .wantsSent:
                guard wantsOutstanding.isEmpty, peerBlobsDone, peerWantsServed >= peerWantsReceived else { return [] }
            }
        }
        exchangeEnded = true
        report.completed = report.messagesRefusedByPeer == 0
        finished = true
        return finishStreams() + [.closeLink]
    }

    private mutating func finishStreams() -> [Action] {
        requestsOpen = false
        return [.finishStreams]
    }

    private mutating func record(_ error: SecureLinkError) {
        if linkFailure == nil { linkFailure = error }
    }

    private mutating func violate(_ violation: SyncSessionViolation) -> [Action] {
        if report.violation == nil { report.violation = violation }
        finished = true
        return finishStreams()
    }
}
