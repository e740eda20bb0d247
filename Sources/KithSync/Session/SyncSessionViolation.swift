/// A rule of the session protocol the peer broke.
public enum SyncSessionViolation: Hashable, Sendable, CustomStringConvertible {
    /// A request arrived after the peer's `done`, or beyond ``SyncLimits/maximumRequestsPerSession``.
    case unexpectedRequest
    /// An offer arrived that answers no request of ours.
    case unexpectedOffer
    /// A second `done`.
    case unexpectedDone

    public var description: String {
        switch self {
        case .unexpectedRequest: "peer sent a request after its done or beyond the per-session bound"
        case .unexpectedOffer: "peer sent an offer for a feed this side did not request"
        case .unexpectedDone: "peer sent done twice"
        }
    }
}
