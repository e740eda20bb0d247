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
        // The drain waits for the peer's close answer, which a loaded machine can delay by seconds.
        let group = server.makeServiceGroup(signals: [], drainTimeout: .seconds(60)) { _, bound in port.withLock { $0 = bound } }
        let ended = Mutex<Result<Void, any Error>?>(nil)
        let running = Task {
            let outcome = await Result { try await group.run() }
            ended.withLock { $0 = outcome }
            try outcome.get()
        }
        // Waits for the server to listen or to stop; bounded very generously, as a loaded machine once took over 60 s
        // to start it (a passing run never waits the bound).
        _ = await eventually(within: 300) { port.withLock { $0 } != nil || ended.withLock { $0 } != nil }
        if let outcome = ended.withLock({ $0 }), port.withLock({ $0 }) == nil {
            Issue.record("the server stopped before it listened: \(outcome)")
            return
        }
        let listening = try #require(port.withLock { $0 }, "the server did not listen within 300 s")
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
