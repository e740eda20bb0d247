/// How the old device reaches the new one, as a move code names it (docs/CONTINUITY.md, section 7).
public enum MoveRoute: Sendable, Equatable {
    /// A direct TCP connection to `host`:`port` (loopback or the local network).
    case direct(host: String, port: Int)
    /// A room of a `kith serve` rendezvous server, joined with `joinCode` (6…64 of `A-Z a-z 0-9 - _`). `server` is the
    /// server's URL as the new device reached it (an `http://` or `https://` URL), or nil for a code that does not
    /// name it (first byte 0x02): then both devices must name the same server.
    case relay(joinCode: String, server: String?)
}
