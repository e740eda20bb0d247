import KithRendezvous
import KithServer
import KithTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Graceful shutdown: peers are told before the server stops")
struct GracefulShutdownTests {
    @Test("on graceful shutdown a connected peer gets error 'Server shutting down' and close 1001 going away; run returns")
    func goingAway() async throws {
        let (server, _, _) = try TestServer.make()
        let port = Mutex<Int?>(nil)
        let group = server.makeServiceGroup(signals: [], drainTimeout: .seconds(5)) { _, bound in port.withLock { $0 = bound } }
        let running = Task { try await group.run() }
        // Bounded generously: a loaded machine can take seconds to start the server.
        _ = await eventually { port.withLock { $0 } != nil }
        let listening = try #require(port.withLock { $0 })
        let (peer, _) = try await TestPeer.connect("ws://127.0.0.1:\(listening)/")
        try await peer.send(.ping)
        #expect(try await peer.next() == .pong)

        await group.triggerGracefulShutdown()
        #expect(try await peer.next() == .error(SignalingText.shuttingDown))
        let close = try await peer.closed()
        #expect(close == SignalingClose(code: 1001, reason: "going away"))
        try await running.value
        #expect(server.connectionCount == 0)
    }
}
