import Synchronization

/// What the tasks of one signaling socket share: the relay attempt's inbox, the heartbeat's outstanding `ping`, and
/// whether the socket or the peer dropped.
final class RelaySocketState: Sendable {
    private struct Fields {
        var inbox: RelayFrameInbox?
        var pingSentAt: ContinuousClock.Instant?
        var socketDropped = false
        var peerDropped = false
    }

    private let fields = Mutex(Fields())

    /// The inbox of the running relay attempt (nil between attempts: frames then are dropped).
    var inbox: RelayFrameInbox? { fields.withLock { $0.inbox } }

    /// Starts a relay attempt with a fresh inbox (on `relay_ready`).
    func beginAttempt(_ inbox: RelayFrameInbox) {
        fields.withLock {
            $0.inbox = inbox
            $0.peerDropped = false
        }
    }

    /// Ends the relay attempt; answers its inbox to finish. `peerDropped` records a `peer_disconnected`.
    func endAttempt(peerDropped: Bool) -> RelayFrameInbox? {
        fields.withLock { state in
            if peerDropped { state.peerDropped = true }
            let inbox = state.inbox
            state.inbox = nil
            return inbox
        }
    }

    /// Records that the socket dropped; answers the inbox to finish.
    func socketDropped() -> RelayFrameInbox? {
        fields.withLock { state in
            state.socketDropped = true
            let inbox = state.inbox
            state.inbox = nil
            return inbox
        }
    }

    /// True once the socket dropped (error, server close, heartbeat timeout).
    var isSocketDropped: Bool { fields.withLock { $0.socketDropped } }
    /// True when the last relay attempt ended by the peer's `peer_disconnected`.
    var isPeerDropped: Bool { fields.withLock { $0.peerDropped } }

    /// The heartbeat sent a `ping` now.
    func pingSent() { fields.withLock { $0.pingSentAt = .now } }
    /// The server's `pong` arrived.
    func pongReceived() { fields.withLock { $0.pingSentAt = nil } }
    /// True while a `ping` waits for its `pong` for `timeout` or longer.
    func pongOverdue(timeout: Duration) -> Bool {
        fields.withLock { state in state.pingSentAt.map { ContinuousClock.now - $0 >= timeout } ?? false }
    }
}
