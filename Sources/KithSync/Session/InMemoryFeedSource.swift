import KithCanonical
import KithIdentity

/// An in-memory ``SyncFeedSource`` for tests and benchmarks.
///
/// Its toy envelope is `feed_id 32 | sequence u32 | content` (content non-empty; a first content
/// byte 0xFF marks an envelope that fails "verification"). Every held or followed feed is shared
/// with every peer. For tests it can be made to fail (``failOn(_:)``: every call of an operation
/// throws ``SyncSourceError``) or to refuse what it receives (``setRefusesIngest(_:)``).
public actor InMemoryFeedSource: SyncFeedSource {
    private var feeds: [FeedID: [UInt32: [UInt8]]] = [:]
    private var followed: [FeedID] = []
    private var acknowledgements: [SyncPeer: Set<SyncMessageID>] = [:]
    private var priorities: [FeedID: [UInt32: SyncPriority]] = [:]
    private var failing: Set<SyncSourceError.Operation> = []
    private var refusesIngest = false
    private var withheld: Set<FeedID> = []
    /// Envelopes ingested, in arrival order (for tests of newest-first delivery).
    public private(set) var ingestLog: [(feed: FeedID, sequence: UInt32)] = []

    /// Creates an empty store.
    public init() {}

    /// Builds a toy envelope.
    public static func envelope(feed: FeedID, sequence: UInt32, content: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 36 + content.count)
        writer.write(bytes: feed.rawBytes)
        writer.write(sequence)
        writer.write(bytes: content)
        return writer.bytes
    }

    /// Follows a feed (it will be requested from peers).
    public func follow(_ feed: FeedID) {
        if !followed.contains(feed) { followed.append(feed) }
    }

    /// Stores an envelope directly (for authoring or seeding) with its scheduling class.
    public func append(feed: FeedID, sequence: UInt32, content: [UInt8], priority: SyncPriority = .content) {
        feeds[feed, default: [:]][sequence] = Self.envelope(feed: feed, sequence: sequence, content: content)
        priorities[feed, default: [:]][sequence] = priority
    }

    /// Sequences held of a feed, ascending.
    public func sequences(of feed: FeedID) -> [UInt32] {
        (feeds[feed] ?? [:]).keys.sorted()
    }

    /// Highest sequence held contiguously from 0.
    public func contiguousSequence(of feed: FeedID) -> UInt32? {
        guard let held = feeds[feed] else { return nil }
        var next: UInt32 = 0
        while held[next] != nil { next += 1 }
        return next == 0 ? nil : next - 1
    }

    /// Declares, with each request, the sequences held above the contiguous prefix (held ranges).
    public var declaresHeldRanges = true

    /// Turns held-range declarations on or off (off: the pre-0x0004 behaviour, for comparisons).
    public func setDeclaresHeldRanges(_ value: Bool) { declaresHeldRanges = value }

    /// The message ids of held envelopes of `feed` at `sequences` (for tests).
    public func outgoingIDs(feed: FeedID, sequences: Set<UInt32>) -> [SyncMessageID] {
        sequences.compactMap { feeds[feed]?[$0] }.map { SyncMessageID(envelope: $0) }
    }

    /// Forgets every acknowledgement received (what a restarted process would have in memory).
    public func forgetAcknowledgements() { acknowledgements = [:] }

    /// Makes every later call of `operation` throw (a failing store), or stop throwing.
    public func failOn(_ operation: SyncSourceError.Operation, _ fails: Bool = true) {
        if fails { failing.insert(operation) } else { failing.remove(operation) }
    }

    /// Makes ``outgoing(feed:above:for:)`` of `feed` throw a ``SyncSourceError/feedOnly`` error,
    /// as a store holding a self message without its stub does.
    public func withhold(_ feed: FeedID) { withheld.insert(feed) }

    /// Makes ingest refuse (verdict ``SyncIngestResult/invalid``) every message, as a store
    /// whose pending capacity is full does.
    public func setRefusesIngest(_ value: Bool) { refusesIngest = value }

    private func check(_ operation: SyncSourceError.Operation) throws(SyncSourceError) {
        if failing.contains(operation) { throw SyncSourceError(operation, reason: "injected store failure") }
    }

    public func followedFeeds(for peer: SyncPeer) throws(SyncSourceError) -> [SyncFeedState] {
        try check(.followedFeeds)
        return followed.map { feed in
            let have = contiguousSequence(of: feed)
            let above = (feeds[feed] ?? [:]).keys.filter { sequence in have.map { sequence > $0 } ?? true }
            return SyncFeedState(feedID: feed, haveSequence: have, heldRanges: declaresHeldRanges ? SyncHeldRanges.ranges(of: above) : [])
        }
    }

    public func servableFeeds(for peer: SyncPeer) throws(SyncSourceError) -> [FeedID] {
        try check(.followedFeeds)
        return followed + feeds.keys.filter { !followed.contains($0) }.sorted { $0.rawBytes.lexicographicallyPrecedes($1.rawBytes) }
    }

    public func outgoing(feed: FeedID, above haveSequence: UInt32?, for peer: SyncPeer) throws(SyncSourceError) -> SyncFeedBatch? {
        try check(.outgoing)
        if withheld.contains(feed) { throw SyncSourceError(.outgoing, reason: "injected unservable feed", feedOnly: true) }
        guard let held = feeds[feed], !held.isEmpty else { return nil }
        let acked = acknowledgements[peer] ?? []
        let envelopes = held
            .filter { entry in haveSequence.map { entry.key > $0 } ?? true }
            .sorted { $0.key > $1.key }
            .map { SyncOutgoingEnvelope(sequence: $0.key, bytes: $0.value, priority: priorities[feed]?[$0.key] ?? .content) }
            .filter { !acked.contains(SyncMessageID(envelope: $0.bytes)) }
        return SyncFeedBatch(latestSequence: held.keys.max(), envelopes: envelopes)
    }

    public nonisolated func feedID(of envelope: [UInt8]) -> FeedID? {
        guard envelope.count >= SyncLimits.idLength else { return nil }
        return try? FeedID(rawBytes: Array(envelope.prefix(SyncLimits.idLength)))
    }

    public func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) throws(SyncSourceError) -> [SyncIngestResult] {
        try check(.ingest)
        if refusesIngest { return messages.map { _ in .invalid } }
        return messages.map { ingest($0.envelope) }
    }

    private func ingest(_ envelope: [UInt8]) -> SyncIngestResult {
        var reader = ByteReader(envelope)
        guard let feedBytes = try? reader.readBytes(SyncLimits.idLength),
              let feed = try? FeedID(rawBytes: feedBytes),
              let sequence = try? reader.readUInt32(),
              let first = reader.readRemaining().first,
              first != 0xFF,
              followed.contains(feed)
        else { return .invalid }
        if feeds[feed]?[sequence] != nil { return .duplicate }
        feeds[feed, default: [:]][sequence] = envelope
        ingestLog.append((feed, sequence))
        return .accepted
    }

    public func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) throws(SyncSourceError) {
        try check(.acknowledged)
        acknowledgements[peer, default: []].insert(messageID)
    }
}
