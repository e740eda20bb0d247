import KithFeed

/// What happened to one ingested entry.
public enum IngestOutcome: Sendable, Equatable {
    /// Verified, linked to the chain and stored.
    case stored(MessageID, sequence: UInt32)
    /// Verified (or, for a stub, awaiting its anchor) but ahead of a gap: held until the gap fills.
    case pending(MessageID, sequence: UInt32)
    /// Already held: nothing changed.
    case duplicate(MessageID)
    /// An envelope of a later version: stored as-is for relay, not verified.
    case storedForRelay(MessageID)
    /// A validly signed message conflicts with the stored chain: recorded as fork evidence, nothing overwritten.
    case fork(MessageID, sequence: UInt32)
    /// Rejected; nothing stored.
    case rejected(sequence: UInt32?, FeedError)

    /// True for outcomes a sync peer acknowledges with status 0x00 (held durably).
    public var isAccepted: Bool {
        switch self {
        case .stored, .pending, .duplicate, .storedForRelay: true
        case .fork, .rejected: false
        }
    }
}

/// The result of one ingest batch (one transaction).
public struct IngestReport: Sendable {
    /// One outcome per input entry, in input order.
    public var outcomes: [IngestOutcome] = []
    /// Pending entries that this batch linked into the chain.
    public var promoted: [MessageID] = []

    /// How many inputs were stored, linked or already held.
    public var acceptedCount: Int { outcomes.count(where: \.isAccepted) }
}
