/// What a ``TCPSyncServer`` did with a connection that did not become a session.
public enum TCPSyncServerEvent: Sendable, CustomStringConvertible {
    /// The handshake failed (not a contact, bad handshake, connection closed, or evicted).
    case handshakeFailed(remote: String, SecureLinkError)
    /// The handshake did not finish within the deadline; the connection was closed.
    case handshakeTimedOut(remote: String)
    /// A newer connection took this one's handshake slot (too many unauthenticated connections
    /// overall or from its source); it was closed.
    case evicted(remote: String)
    /// Authenticated, but the server already runs its maximum of sessions; the link was closed.
    case tooManySessions(remote: String)

    public var description: String {
        switch self {
        case .handshakeFailed(let remote, let error): "sync with \(remote) failed: \(error)"
        case .handshakeTimedOut(let remote): "\(remote) did not complete the handshake in time; closed"
        case .evicted(let remote): "\(remote) closed to make room for a newer connection (too many unauthenticated connections)"
        case .tooManySessions(let remote): "\(remote) closed: too many sessions at once"
        }
    }
}
