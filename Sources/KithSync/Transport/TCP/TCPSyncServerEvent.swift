/// What a ``TCPSyncServer`` did with a connection that did not become a session.
public enum TCPSyncServerEvent: Sendable {
    /// The handshake failed (not a contact, bad handshake, connection closed, or evicted).
    case handshakeFailed(remote: String, SecureLinkError)
    /// The handshake did not finish within the deadline; the connection was closed.
    case handshakeTimedOut(remote: String)
    /// A newer connection took this one's handshake slot (too many unauthenticated connections
    /// overall or from its source); it was closed.
    case evicted(remote: String)
    /// Authenticated, but the server already runs its maximum of sessions; the link was closed.
    case tooManySessions(remote: String)
}
