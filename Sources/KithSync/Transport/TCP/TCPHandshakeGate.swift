/// The handshake rules of a ``TCPSyncServer`` for connections taken one by one (the server uses
/// it; so does anything else that accepts from a ``TCPSyncListener``, such as `NearbySync`): a
/// deadline per handshake and bounded unauthenticated connections, overall and per source, the
/// oldest evicted (docs/sync.md, section 10).
public struct TCPHandshakeGate: Sendable {
    private let handshakeTimeout: Double
    private let slots: HandshakeSlots

    /// A gate with the handshake limits of `server`; share one gate across a listener's connections.
    public init(server: TCPSyncServer = TCPSyncServer()) {
        handshakeTimeout = server.handshakeTimeout
        slots = HandshakeSlots(maximum: server.maximumPendingHandshakes, maximumPerSource: server.maximumPendingHandshakesPerSource)
    }

    /// Handshakes one connection under the deadline and the slot bounds; nil when it did not
    /// authenticate (the connection is then closed and `onEvent` told why).
    public func authenticate(
        _ transport: TCPTransport,
        handshake: @escaping @Sendable (TCPTransport) async throws(SecureLinkError) -> SecureLink,
        onEvent: @escaping @Sendable (TCPSyncServerEvent) -> Void
    ) async -> SecureLink? {
        let remote = transport.remoteDescription
        let (id, evicted) = await slots.admit(transport, source: transport.remoteHost)
        for old in evicted { await old.close() }
        let timeout = handshakeTimeout
        let outcome = await withTaskGroup(of: HandshakeOutcome.self) { group -> HandshakeOutcome in
            group.addTask {
                do throws(SecureLinkError) { return .link(try await handshake(transport)) } catch { return .failed(error) }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            if case .timedOut = first {
                // Closing the transport ends the handshake task; a link completed at the same
                // instant is closed too.
                await transport.close()
                for await late in group { if case .link(let link) = late { await link.close() } }
            } else {
                group.cancelAll()
            }
            return first
        }
        let wasEvicted = await slots.release(id)
        switch outcome {
        case .link(let link):
            return link
        case .failed(let error):
            onEvent(wasEvicted ? .evicted(remote: remote) : .handshakeFailed(remote: remote, error))
        case .timedOut:
            onEvent(.handshakeTimedOut(remote: remote))
        }
        return nil
    }

    private enum HandshakeOutcome: Sendable {
        case link(SecureLink)
        case failed(SecureLinkError)
        case timedOut
    }
}
