import KithFeed
import KithIdentity

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
    /// Every envelope this batch stored as a message (inputs and promoted ones), in order. Kept by
    /// ``FeedStore/ingest(_:decryptor:)``; a streamed ingest does not collect them across batches.
    public var linked: [LinkedEnvelope] = []

    /// How many inputs were stored, linked or already held.
    public var acceptedCount: Int { outcomes.count(where: \.isAccepted) }
}

/// An envelope an ingest batch stored: what a caller needs to announce it without parsing again.
public struct LinkedEnvelope: Sendable, Equatable {
    /// The feed it belongs to.
    public let feedID: FeedID
    /// Its message id.
    public let messageID: MessageID
    /// Its sequence.
    public let sequence: UInt32
    /// Its content type (`post`, `key_rotation`, …).
    public let type: String
}
