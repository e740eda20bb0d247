/// How long the relay client waits for each step.
public struct RelayTimeouts: Sendable, Hashable {
    /// For the other device to join the room and switch to the relay.
    public var peer: Duration
    /// For a frame while the secure link waits for one (a vanished peer or server).
    public var idle: Duration

    /// Creates timeouts; the defaults wait 120 s for the peer and 30 s for a frame.
    public init(peer: Duration = .seconds(120), idle: Duration = .seconds(30)) {
        self.peer = peer
        self.idle = idle
    }
}
