/// What the next sync session with a peer does about one-time pools (`otk_intents`).
public enum OneTimeIntent: Sendable, Equatable {
    /// Exchange pools of this many keys each way (armed by `kith circle add`).
    case exchange(poolSize: Int)
    /// Tell the peer that this side revoked trust (`kith circle revoke`).
    case revoke
}
