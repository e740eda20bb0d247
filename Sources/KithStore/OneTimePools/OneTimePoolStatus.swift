/// The state of the pools shared with one peer, as `kith circle status` shows it.
public struct OneTimePoolStatus: Sendable, Equatable {
    /// Whether the exchange is committed.
    public enum State: String, Sendable, Equatable {
        /// This side acknowledged and waits for the commit: it may receive, not send.
        case pending
        /// Both sides hold both pools.
        case active
    }

    /// The share below which the client asks to renew at the next meeting.
    public static let renewalThreshold = 0.1

    /// The peer's feed id.
    public let peer: String
    /// The exchange id, lowercase hex.
    public let exchangeID: String
    /// Pending or active.
    public let state: State
    /// Unused private keys of this side's pool (messages the peer can still send here).
    public let ownRemaining: Int
    /// This side's pool size.
    public let ownCapacity: Int
    /// Unused keys of the peer's pool (messages this side can still send).
    public let peerRemaining: Int
    /// The peer's pool size.
    public let peerCapacity: Int
    /// When the pools were stored (Unix milliseconds).
    public let createdAt: Int64

    /// True when either pool is below 10 % (819 of 8192 is low, 820 is not).
    public var needsRenewal: Bool {
        Double(ownRemaining) < Double(ownCapacity) * Self.renewalThreshold
            || Double(peerRemaining) < Double(peerCapacity) * Self.renewalThreshold
    }
}
