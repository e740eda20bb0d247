import KithRendezvous
import KithServer
import NIOCore
import NIOPosix
import Testing

/// One source (an IPv4 address, an IPv6 /64) must not take the node's sockets from everyone else:
/// its TCP connections are capped at accept, and the last signaling slots are kept for other sources.
@Suite("Connections per source")
struct ConnectionLimitTests {
    typealias RawConnection = RequestHeadGuardTests.RawConnection

    static let health = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"

    static func server(_ adjust: (inout RendezvousServerLimits) -> Void) throws -> RendezvousServer {
        var limits = TestServer.limits()
        adjust(&limits)
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: limits, nodeID: "test-node")
        return RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil))
    }

    static func port(_ url: String) throws -> Int { try #require(Int(url.split(separator: ":").last ?? "")) }

    @Test("a source holding its share of keep-alive connections gets its next one closed at accept; another source still gets /health")
    func connectionsPerSource() async throws {
        let server = try Self.server {
            $0.connectionsPerSource = 3
            // The held connections are idle between requests: no head timeout may close them meanwhile.
            $0.requestHeadTimeout = .seconds(600)
        }
        try await server.serving { url in
            let port = try Self.port(url)
            var held: [RawConnection] = []
            for _ in 0..<3 { held.append(try await RawConnection.open(port: port, from: "127.0.0.1")) }
            var answers: [String] = []
            let (excess, other, metrics) = try await RawConnection.holding(held[...], request: Self.health, answers: &answers) {
                let excess = try await RawConnection.open(port: port, from: "127.0.0.1").exchange(Self.health)
                let other = try await RawConnection.open(port: port, from: "127.0.0.2").exchange(Self.health)
                let metrics = try await RawConnection.open(port: port, from: "127.0.0.3").exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
                return (excess, other, metrics)
            }
            #expect(answers == Array(repeating: "HTTP/1.1 200 OK", count: 3))
            #expect(excess == nil, "the fourth connection of one source was served: \(excess ?? "")")
            #expect(other?.hasPrefix("HTTP/1.1 200") == true)
            let series = #"kith_rejections_total{surface="connection",reason="source_full"}"#
            #expect(OperationsEndpointTests.value(metrics ?? "", series) == 1)

            // The held connections closed: the source gets connections again (its count fell back).
            var served: String?
            let deadline = ContinuousClock.now + .seconds(120)
            while served == nil, ContinuousClock.now < deadline {
                served = try await RawConnection.open(port: port, from: "127.0.0.1").exchange(Self.health)
                if served == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(served?.hasPrefix("HTTP/1.1 200") == true)
        }
    }

    @Test("one source cannot take the node's last signaling slots: another source still connects")
    func reservedSignalingSlots() async throws {
        let server = try Self.server {
            // 8 slots, the last one (an eighth) kept for sources holding none.
            $0.maximumConnections = 8
        }
        try await server.serving { url in
            let port = try Self.port(url)
            let webSocketURL = "ws://127.0.0.1:\(port)/"
            var peers: [TestPeer] = []
            for _ in 0..<7 { peers.append(try await TestPeer.connect(webSocketURL).0) }
            let refused: Int? = try await RawConnection.within(20) {
                try await SignalingClient.connect(to: webSocketURL) { channel in
                    for try await _ in channel.messages {}
                }.code
            } ?? nil
            #expect(refused == 1013, "the busy source took the reserved slot")
            let other = try await Self.signalingGreeting(port: port, from: "127.0.0.2")
            #expect(other.contains(#""connected""#), "another source was refused: \(other)")
            #expect(try await RawConnection.open(port: port, from: "127.0.0.2").exchange(Self.health)?.hasPrefix("HTTP/1.1 200") == true)
            for peer in peers { await peer.close() }
        }
    }

    /// Upgrades a raw connection from `source` to the signaling WebSocket and returns what the
    /// server sent until its first text frame arrived or the connection ended.
    static func signalingGreeting(port: Int, from source: String) async throws -> String {
        let connection = try await RawConnection.open(port: port, from: source)
        let upgrade = "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        return try await connection.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: upgrade))
            return try await RawConnection.within(20) {
                var received = ""
                for try await buffer in inbound {
                    received += String(decoding: buffer.readableBytesView, as: UTF8.self)
                    if received.contains(#""connected""#) || received.contains("server full") { break }
                }
                return received
            } ?? "no answer"
        }
    }
}
