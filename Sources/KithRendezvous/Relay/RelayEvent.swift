/// What a relay session reports while it runs, for progress lines (`kith pair`, `kith chat`); never needed to use
/// the relay.
public enum RelayEvent: Sendable, Hashable {
    /// This device's signaling socket dropped (an error, the server closing it, or no `pong` in time).
    case connectionLost
    /// Waiting `delay` before reconnection attempt `attempt` (1-based).
    case reconnecting(attempt: Int, delay: Duration)
    /// The socket is open again and the room re-joined; the relay restarts when the peer is there.
    case reconnected
    /// The other device's connection dropped; waiting for it to come back.
    case peerConnectionLost
    /// The relay runs again after a drop (this device's or the peer's): the body starts over.
    case resumed
    /// The room was deleted from the server after the session (or the server had already forgotten it).
    case roomDeleted
    /// Deleting the room failed (the reason); the server forgets it when it expires.
    case roomNotDeleted(String)
}
