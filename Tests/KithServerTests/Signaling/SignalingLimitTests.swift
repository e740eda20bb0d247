import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("Signaling limits: size, rate, idleness")
struct SignalingLimitTests {
    @Test("an oversize message closes the connection with 1009")
    func oversize() async throws {
        var limits = TestServer.limits()
        limits.maximumMessageBytes = 4_096
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (peer, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            try await peer.send(.ping)
            #expect(try await peer.next() == .pong)
            try await peer.send(.signal(.offer(sdp: String(repeating: "s", count: 5_000))))
            #expect(try await peer.closed().code == 1009)
        }
    }

    @Test("messages over the rate are dropped with an error; persistent excess closes with 1008")
    func rate() async throws {
        var limits = TestServer.limits()
        limits.messagesPerConnection = RateLimitRule(burst: 5, perSecond: 0.001)
        limits.rateLimitStrikes = 3
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (peer, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            for _ in 0..<8 { try await peer.send(.ping) }
            for _ in 0..<5 { #expect(try await peer.next() == .pong) }
            for _ in 0..<3 { #expect(try await peer.next() == .error(SignalingText.rateLimited)) }
            try await peer.send(.ping)
            #expect(try await peer.closed().code == 1008)
        }
    }

    @Test("a connection in no room that stays silent is closed with 1001")
    func idle() async throws {
        var limits = TestServer.limits()
        limits.idleTimeout = .milliseconds(400)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (peer, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
            #expect(try await peer.closed(seconds: 60).code == 1001)
        }
    }

    @Test("a connection in no room that sends WebSocket pings (Inviso's app pings every 25 s) is not closed as idle")
    func pingsAreActivity() async throws {
        var limits = TestServer.limits()
        // Wide margins both ways: on a loaded machine a ping or its pong can be seconds late, and the client closes
        // itself when a pong is a whole interval late (6 s and 2 s failed once under the full suite).
        limits.idleTimeout = .seconds(20)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let url = try SignalingFlowTests.url(client)
            // Pings well inside the idle timeout.
            let (pinging, _) = try await TestPeer.connect(url, pingInterval: .seconds(4))
            let (silent, _) = try await TestPeer.connect(url)
            // The silent one is closed as idle; by then the pinging one has outlived the idle timeout.
            #expect(try await silent.closed(seconds: 120).code == 1001)
            try await Task.sleep(for: .seconds(3))
            try await pinging.send(.ping)
            #expect(try await pinging.next() == .pong)
            await pinging.close()
        }
    }

    @Test("a member of a room is not reaped for silence")
    func memberNotIdle() async throws {
        // The connection counts as idle until it joins, so the join must land inside the idle timeout. A loaded
        // machine can stall this task for seconds (300 ms, then 2 s, were once too short), so a run whose join took
        // that long proves nothing and is tried again with a longer timeout.
        var conclusive = false
        for idleTimeout in [2, 8, 30] where !conclusive {
            var limits = TestServer.limits()
            limits.idleTimeout = .seconds(idleTimeout)
            let (server, _, _) = try TestServer.make(limits: limits)
            conclusive = try await server.makeApplication().test(.live) { client in
                let room = try #require(RoomID(try await client.pairedRoom()))
                let connecting = ContinuousClock.now
                let (peer, _) = try await TestPeer.connect(try SignalingFlowTests.url(client))
                try await peer.send(.joinRoom(roomID: room, deviceID: nil))
                let joined = await Result { try await peer.next() }
                guard case .success = joined, ContinuousClock.now - connecting < .seconds(idleTimeout) else {
                    await peer.close()
                    return false
                }
                // Silent for longer than the idle timeout: a member is not reaped.
                try await Task.sleep(for: .seconds(idleTimeout + 1))
                try await peer.send(.ping)
                #expect(try await peer.next() == .pong)
                await peer.close()
                return true
            }
        }
        #expect(conclusive, "every run was stalled past its idle timeout before the join landed")
    }

    @Test("a node holding its maximum of connections refuses more with 1013")
    func connectionCap() async throws {
        var limits = TestServer.limits()
        limits.maximumConnections = 1
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let url = try SignalingFlowTests.url(client)
            let (first, _) = try await TestPeer.connect(url)
            let close = try await SignalingClient.connect(to: url) { channel in
                for try await message in channel.messages { Issue.record("unexpected \(message)") }
            }
            #expect(close.code == 1013)
            await first.close()
        }
    }

    @Test("every one of 30 clients refused at once sees 1013 (a close sent in the moment of the upgrade was lost by half)")
    func refusalsReachEveryClient() async throws {
        var limits = TestServer.limits()
        limits.maximumConnections = 1
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let url = try SignalingFlowTests.url(client)
            let (first, _) = try await TestPeer.connect(url)
            let codes = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await RequestHeadGuardTests.RawConnection.within(10) {
                            try await SignalingClient.connect(to: url) { channel in
                                for try await _ in channel.messages {}
                            }.code
                        } ?? nil
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(codes.count == 30)
            #expect(codes.allSatisfy { $0 == 1013 }, "codes seen: \(codes)")
            await first.close()
        }
    }
}
