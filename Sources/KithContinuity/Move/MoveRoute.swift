/// How the old device reaches the new one, as a move code names it (docs/CONTINUITY.md, section 7).
public enum MoveRoute: Sendable, Equatable {
    /// A direct TCP connection to `host`:`port` (loopback or the local network).
    case direct(host: String, port: Int)
    /// A room of a `kith serve` rendezvous server, joined with `joinCode` (6…64 of `A-Z a-z 0-9 - _`); the server
    /// URL is not in the code (both devices name the same server).
    case relay(joinCode: String)
}
