/// A rule of the session protocol the peer broke.
public enum SyncSessionViolation: Hashable, Sendable, CustomStringConvertible {
    /// A request arrived after the peer's `done`, or beyond ``SyncLimits/maximumRequestsPerSession``.
    case unexpectedRequest
    /// An offer arrived that answers no request of ours.
    case unexpectedOffer
    /// A second `done`.
    case unexpectedDone
    /// Held ranges for a feed the peer did not request, after its `done`, below its `have_seq`,
    /// out of order, or beyond ``SyncLimits/maximumHeldRangesPerFeed``.
    case unexpectedHeldRanges
    /// A blob record outside the blob phase: a want after `blobs done` or beyond the bound, a
    /// second `blobs done`, or a blob chunk or `blob missing` for a blob this side did not want.
    case unexpectedBlobRecord
    /// A message of a feed the peer did not offer in this session, beyond the `message_count` it
    /// offered, or naming no feed (it is not ingested).
    case unofferedMessage
    /// A side-phase record (0x0B) inside the session: side messages only come before it.
    case unexpectedSideRecord

    public var description: String {
        switch self {
        case .unexpectedRequest: "peer sent a request after its done or beyond the per-session bound"
        case .unexpectedOffer: "peer sent an offer for a feed this side did not request"
        case .unexpectedDone: "peer sent done twice"
        case .unexpectedHeldRanges: "peer sent held ranges that answer no request of its own or break their order"
        case .unexpectedBlobRecord: "peer sent a blob record outside the blob phase or for a blob not wanted"
        case .unofferedMessage: "peer sent a message of a feed it did not offer, or more than it offered"
        case .unexpectedSideRecord: "peer sent a side-phase record inside the sync session"
        }
    }
}
