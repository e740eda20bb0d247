/// Why pairing through a rendezvous server or opening its relay failed.
public enum RelayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A REST or signaling request failed (unreachable server, unknown or expired code…).
    case rendezvous(RendezvousClientError)
    /// The room already holds two other devices.
    case roomFull
    /// The server refused a step with an `error` message (its text).
    case refused(String)
    /// The other device did not join (or did not switch to the relay) in time.
    case peerTimeout
    /// Nobody accepted the join code before it expired or before the wait ended.
    case notAccepted
    /// The other device left or disconnected before the relay started.
    case peerGone
    /// The signaling connection ended early.
    case closed
    /// The signaling socket dropped mid-session and every reconnection attempt to `server` failed.
    case reconnectFailed(server: String, attempts: Int)

    /// One sentence with the cause and what to do.
    public var description: String {
        switch self {
        case .rendezvous(let error): error.description
        case .roomFull: "the room already has two devices; create a new join code"
        case .refused(let text): "the rendezvous server refused: \(text)"
        case .peerTimeout: "the other device did not join in time; check that it runs `kith pair join` with this code"
        case .notAccepted: "nobody accepted the join code in time; create a new one"
        case .peerGone: "the other device left before the relay started; try again"
        case .closed: "the rendezvous server closed the connection"
        case .reconnectFailed(let server, let attempts):
            "lost the connection to the rendezvous server \(server) and could not reconnect (\(attempts) attempts); check that `kith serve` runs there and the network, then start again"
        }
    }
}
