/// Why a one-time pool operation of the store failed; nothing was written.
public enum OneTimePoolError: Error, Sendable, CustomStringConvertible {
    /// No pool is shared with this peer: add them to the inner circle while syncing in person.
    case noPool(peer: String)
    /// The exchange with this peer is not committed yet: this side may receive but not send.
    case pending(peer: String)
    /// Every key of the peer's pool was used: renew at the next meeting, never reuse a key.
    case exhausted(peer: String)
    /// No unused private key has this id for this peer: already used (a replay), revoked or never ours.
    case unknownKey(peer: String, keyID: String)
    /// A pool to install is malformed (a key of the wrong size, a duplicate id, an empty pool).
    case invalidPool(String)
    /// The store failed.
    case store(StoreError)

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .noPool(let peer): "no one-time pool with \(peer): run `kith circle add` while the two of you sync in person"
        case .pending(let peer): "the pool exchange with \(peer) is not committed yet: sync again to finish it"
        case .exhausted(let peer): "the one-time pool of \(peer) is exhausted: renew it at the next meeting (keys are never reused)"
        case .unknownKey(let peer, let keyID): "no unused one-time key \(keyID) for \(peer): already used (replay), revoked or unknown"
        case .invalidPool(let reason): "invalid one-time pool: \(reason)"
        case .store(let error): error.description
        }
    }
}
