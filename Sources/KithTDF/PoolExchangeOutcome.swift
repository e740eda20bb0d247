/// What one side keeps from a pool exchange: the private pool it generated for the peer and the
/// public pool the peer generated for it.
public struct PoolExchangeOutcome: Sendable {
    /// The exchange both pools belong to.
    public let exchangeID: PoolExchangeID
    /// This side's private halves (the peer encrypts to them).
    public let ownPool: OneTimeKeyPool
    /// The peer's public halves (this side encrypts to them).
    public let peerPool: PeerKeyPool
}
