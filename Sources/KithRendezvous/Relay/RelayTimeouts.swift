/// How long the relay client waits for each step, and how it checks that its signaling socket lives.
public struct RelayTimeouts: Sendable, Hashable {
    /// For the other device to join the room and switch to the relay (also when it comes back after a drop).
    public var peer: Duration
    /// For a frame while the secure link waits for one (a vanished peer or server).
    public var idle: Duration
    /// How often the client sends the signaling `ping` (Inviso's app: every 25 s).
    public var heartbeatInterval: Duration
    /// How long the client waits for the server's `pong` before it treats the socket as dropped (Inviso: 10 s).
    public var heartbeatTimeout: Duration

    /// Creates timeouts; the defaults wait 120 s for the peer and 30 s for a frame, and ping every 25 s with a 10 s
    /// answer timeout.
    public init(peer: Duration = .seconds(120), idle: Duration = .seconds(30), heartbeatInterval: Duration = .seconds(25), heartbeatTimeout: Duration = .seconds(10)) {
        self.peer = peer
        self.idle = idle
        self.heartbeatInterval = heartbeatInterval
        self.heartbeatTimeout = heartbeatTimeout
    }
}
