/// What the next sync session with a peer does about one-time pools (`otk_intents`).
public enum OneTimeIntent: Sendable, Equatable {
    /// Exchange pools of this many keys each way (armed by `kith circle add`).
    case exchange(poolSize: Int)
    /// Tell the peer that this side revoked trust (`kith circle revoke`).
    case revoke
    /// This side answered an exchange of this many keys and sent the commit, which may not have
    /// arrived: the peer's next request is answered without a new `kith circle add`. Forgotten when
    /// the peer opens a later session without a request (it had the commit) or revokes.
    case confirm(poolSize: Int)
}
