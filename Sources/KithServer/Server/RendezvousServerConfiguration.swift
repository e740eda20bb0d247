import KithRendezvous
import NIOSSL

/// Where and how a rendezvous server runs.
public struct RendezvousServerConfiguration: Sendable {
    /// Address to bind: loopback unless told otherwise.
    public var host: String
    /// TCP port (0 picks a free one).
    public var port: Int
    /// Bounds and timings.
    public var limits: RendezvousServerLimits
    /// This process's name among the nodes sharing a store (random by default).
    public var nodeID: String
    /// TURN credentials handed to paired devices (`GET /api/turn-credentials`); nil: the endpoint answers 404.
    public var turn: TURNConfiguration?
    /// The push gateway's providers, the push service's public URL and the push bounds (used when
    /// the server has a ``PushStore``).
    public var push: PushConfiguration
    /// TLS for every connection (HTTPS, WSS; ALPN `http/1.1`); nil: plain HTTP.
    public var tls: TLSConfiguration?

    /// A configuration binding `host:port` (127.0.0.1:7460 by default).
    public init(
        host: String = RendezvousLimits.defaultHost,
        port: Int = RendezvousLimits.defaultPort,
        limits: RendezvousServerLimits = RendezvousServerLimits(),
        nodeID: String = ClientID.random().text,
        turn: TURNConfiguration? = nil,
        push: PushConfiguration = PushConfiguration()
    ) {
        self.push = push
        self.turn = turn
        self.host = host
        self.port = port
        self.limits = limits
        self.nodeID = nodeID
    }
}
