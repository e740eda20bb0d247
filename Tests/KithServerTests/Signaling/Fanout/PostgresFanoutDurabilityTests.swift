import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
@testable import KithServer
import PostgresNIO
import Testing

/// The fan-out loses nothing across a listener reconnect or a graceful shutdown (part of the
/// ``PostgresFanoutTests`` suite, so the test command's PostgreSQL filter runs it).
extension PostgresFanoutTests {
    /// The number of backends listening on `channel` right now.
    static func listeners(on channel: String, store: PostgresRendezvousStore) async throws -> Int {
        try await store.transaction { connection in
            var count = 0
            for try await row in try await connection.query(
                "SELECT count(*)::BIGINT FROM pg_stat_activity WHERE query ILIKE \("%LISTEN%" + channel + "%")", logger: Logger(label: "test")
            ).decode(Int64.self) { count = Int(row) }
            return count
        }
    }

    @Test("an event sent while the receiving node's listener is reconnecting waits in the spool and arrives after the reconnect")
    func eventDuringListenerReconnect() async throws {
        let clock = ManualServerClock()
        let (serverA, _, _) = try await Self.node("gap-a", clock: clock)
        let (serverB, busB, storeB) = try await Self.node("gap-b", clock: clock)
        let channelB = PostgresSignalBus.channel(of: serverB.configuration.nodeID)
        let code = String(UInt64.random(in: 100_000_000...999_999_999))
        try await serverA.makeApplication().test(.live) { clientA in
            try await serverB.makeApplication().test(.live) { clientB in
                #expect(try await clientA.create(code, "ga-1").status == 201)
                let room = try #require(RoomID(try await clientB.accept(code, "gb-2").json["roomid"] ?? ""))
                let (alice, _) = try await RelayTestPeer.connect(try Self.url(clientA))
                let (bob, _) = try await RelayTestPeer.connect(try Self.url(clientB))
                try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("ga-1")))
                _ = try await alice.next()
                try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("gb-2")))
                _ = try await bob.next()
                _ = try await bob.next()
                _ = try await alice.next()

                // Cut node B's listening connection and wait until it is gone (it comes back after a second).
                _ = try await storeB.transaction { connection in
                    try await connection.query(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE \("%LISTEN%" + channelB + "%")",
                        logger: Logger(label: "test"))
                }
                let deadline = ContinuousClock.now + .seconds(60)
                while try await Self.listeners(on: channelB, store: storeB) > 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await alice.send(.signal(.keyExchange(publicKey: "GAP", sessionID: "s", timestamp: 1)))
                guard case .message(.relayed(let relayed)) = try await bob.next(seconds: 60) else {
                    Issue.record("bob did not get the key exchange sent during the gap")
                    return
                }
                #expect(relayed.payload == .keyExchange(publicKey: "GAP", sessionID: "s", timestamp: 1))
                #expect(busB.eventsReceived > 0)
                await alice.close()
                await bob.close()
            }
        }
    }

    @Test("on graceful shutdown the node sends every event it had queued before it stops")
    func shutdownFlushesQueue() async throws {
        let clock = ManualServerClock()
        var options = PostgresFanoutOptions()
        options.shutdownFlushTimeout = .seconds(30)
        let (server, bus, store) = try await Self.node("flush", clock: clock, options: options)
        // Events for a node that is not listening stay in the spool, where they can be counted.
        let ghost = "ghost-\(UInt32.random(in: 0...UInt32.max))"
        let room = try #require(RoomID("flush-room"))
        let count = 150
        try await server.serving { _ in
            for index in 0..<count {
                bus.send(
                    .peerGone(room: room, message: .peerDisconnected(message: "n\(index)")),
                    to: MemberAddress(node: ghost, client: .random()))
            }
        }
        let channel = PostgresSignalBus.channel(of: ghost)
        let stored = try await store.transaction { connection in
            var stored = 0
            for try await row in try await connection.query(
                "SELECT count(*)::BIGINT FROM kith_signal_spool WHERE channel = \(channel)", logger: Logger(label: "test")
            ).decode(Int64.self) { stored = Int(row) }
            return stored
        }
        #expect(stored == count)
        #expect(bus.eventsSent == count)
    }
}
