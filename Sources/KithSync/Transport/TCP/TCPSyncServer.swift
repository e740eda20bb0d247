import Synchronization

/// Serves a ``TCPSyncListener`` so that no client can keep a legitimate contact out
/// (docs/sync.md, section 10, "Serving a listener").
///
/// - Every accepted connection handshakes in its own task, concurrently with the others.
/// - The handshake has a deadline (``SyncLimits/tcpHandshakeTimeoutSeconds``): a client that
///   trickles bytes or says nothing is closed then, whatever the idle timeout.
/// - At most ``SyncLimits/tcpMaximumPendingHandshakes`` connections handshake at once, at most
///   ``SyncLimits/tcpMaximumPendingHandshakesPerSource`` from one source address; one more evicts
///   the oldest (of that source first), so the newest connection, such as a contact dialing while
///   a flood goes on, always gets its slot.
/// - At most ``SyncLimits/tcpMaximumConcurrentSessions`` authenticated sessions run at once.
public struct TCPSyncServer: Sendable {
    /// Seconds a connection has to complete its handshake.
    public var handshakeTimeout: Double
    /// Connections handshaking at once.
    public var maximumPendingHandshakes: Int
    /// Connections handshaking at once from one source address.
    public var maximumPendingHandshakesPerSource: Int
    /// Sessions running at once.
    public var maximumConcurrentSessions: Int

    /// Creates a server with the ``SyncLimits`` defaults.
    public init(
        handshakeTimeout: Double = SyncLimits.tcpHandshakeTimeoutSeconds,
        maximumPendingHandshakes: Int = SyncLimits.tcpMaximumPendingHandshakes,
        maximumPendingHandshakesPerSource: Int = SyncLimits.tcpMaximumPendingHandshakesPerSource,
        maximumConcurrentSessions: Int = SyncLimits.tcpMaximumConcurrentSessions
    ) {
        self.handshakeTimeout = handshakeTimeout
        self.maximumPendingHandshakes = maximumPendingHandshakes
        self.maximumPendingHandshakesPerSource = maximumPendingHandshakesPerSource
        self.maximumConcurrentSessions = maximumConcurrentSessions
    }

    /// Serves `listener` until it closes, or until `sessionLimit` sessions have finished (then it
    /// closes the listener; sessions and handshakes already under way still finish).
    /// - Parameters:
    ///   - handshake: authenticates a connection (for example ``SecureLink/accept(over:configuration:)``).
    ///   - onEvent: told about every connection that did not become a session.
    ///   - session: runs one session over an authenticated link (it should close the link).
    public func serve(
        _ listener: TCPSyncListener,
        sessionLimit: Int? = nil,
        handshake: @escaping @Sendable (TCPTransport) async throws(SecureLinkError) -> SecureLink,
        onEvent: @escaping @Sendable (TCPSyncServerEvent) -> Void = { _ in },
        session: @escaping @Sendable (SecureLink) async -> Void
    ) async {
        let gate = TCPHandshakeGate(server: self)
        let counters = SessionCounters()
        await withDiscardingTaskGroup { group in
            for await transport in listener.connections {
                group.addTask {
                    guard let link = await gate.authenticate(transport, handshake: handshake, onEvent: onEvent) else { return }
                    let admitted = counters.state.withLock { state -> Bool in
                        guard state.running < maximumConcurrentSessions else { return false }
                        state.running += 1
                        return true
                    }
                    guard admitted else {
                        onEvent(.tooManySessions(remote: transport.remoteDescription))
                        await link.close()
                        return
                    }
                    await session(link)
                    let finished = counters.state.withLock { state -> Int in
                        state.running -= 1
                        state.finished += 1
                        return state.finished
                    }
                    if let sessionLimit, finished >= sessionLimit { await listener.close() }
                }
            }
        }
    }
}

/// Sessions running and finished, shared by a server's tasks.
private final class SessionCounters: Sendable {
    let state = Mutex((running: 0, finished: 0))
}
