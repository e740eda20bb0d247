import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithTestSupport
import NIOCore
import NIOPosix
import Testing

@testable import KithServer

/// Signaling served by NIO channel handlers (``SignalingChannelHandler``, the one signaling engine
/// since the task-per-WebSocket one was retired).
@Suite("Signaling on channel handlers")
struct SignalingChannelHandlerTests {
    static func limits() -> RendezvousServerLimits { TestServer.limits() }

    static func url(_ client: some TestClientProtocol) throws -> String { "ws://localhost:\(try #require(client.port))/" }

    @Test("join, room_ready, signals relayed both ways, leave, disconnect; REST on the same port")
    func twoPeers() async throws {
        let (server, _, _) = try TestServer.make(limits: Self.limits())
        try await server.makeApplication().test(.live) { client in
            let roomText = try await client.pairedRoom()
            let room = try #require(RoomID(roomText))
            let (alice, aliceID) = try await TestPeer.connect(try Self.url(client))
            let (bob, bobID) = try await TestPeer.connect(try Self.url(client))
            #expect(server.connectionCount == 2)

            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            #expect(try await alice.next() == .roomJoined(roomID: room, userCount: 1, isInitiator: true, ready: false))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            #expect(try await bob.next() == .roomJoined(roomID: room, userCount: 2, isInitiator: false, ready: true))
            #expect(try await bob.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: false))
            #expect(try await alice.next() == .roomReady(roomID: room, message: SignalingText.roomReady, userCount: 2, isInitiator: true))

            // Messages sent back to back right after a join are held until it ends, in order.
            for index in 0..<5 { try await alice.send(.signal(.offer(sdp: "offer \(index)"))) }
            for index in 0..<5 {
                #expect(try await bob.next() == .relayed(RelayedSignal(from: aliceID, roomID: room, payload: .offer(sdp: "offer \(index)"))))
            }
            try await bob.send(.signal(.answer(sdp: "v=0 answer")))
            #expect(try await alice.next() == .relayed(RelayedSignal(from: bobID, roomID: room, payload: .answer(sdp: "v=0 answer"))))
            try await alice.send(.ping)
            #expect(try await alice.next() == .pong)

            #expect(try await client.call(.get, "/health").status == 200)

            await bob.close()
            #expect(try await alice.next() == .peerDisconnected(message: SignalingText.peerDisconnected))
            await alice.close()
            #expect(await eventually { server.connectionCount == 0 })
        }
    }

    @Test("messages sent right behind a join_room wait for it and keep their order")
    func messagesBehindAJoin() async throws {
        let (server, _, _) = try TestServer.make(limits: Self.limits())
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom()))
            let (alice, aliceID) = try await TestPeer.connect(try Self.url(client))
            let (bob, _) = try await TestPeer.connect(try Self.url(client))
            try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
            _ = try await bob.next()
            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            for index in 0..<3 { try await alice.send(.signal(.offer(sdp: "offer \(index)"))) }
            try await alice.send(.ping)
            guard case .roomJoined = try await alice.next() else { throw TestPeer.Timeout(waitingFor: "room_joined") }
            guard case .roomReady = try await alice.next() else { throw TestPeer.Timeout(waitingFor: "room_ready") }
            #expect(try await alice.next() == .pong)
            guard case .roomReady = try await bob.next() else { throw TestPeer.Timeout(waitingFor: "room_ready") }
            for index in 0..<3 {
                #expect(try await bob.next() == .relayed(RelayedSignal(from: aliceID, roomID: room, payload: .offer(sdp: "offer \(index)"))))
            }
            await alice.close()
            await bob.close()
        }
    }

    @Test("limits: oversize 1009, a full node 1013, persistent excess 1008")
    func limitsAndRefusals() async throws {
        var limits = Self.limits()
        limits.maximumMessageBytes = 256
        limits.maximumConnections = 1
        limits.messagesPerConnection = RateLimitRule(burst: 2, perSecond: 0.001)
        limits.rateLimitStrikes = 3
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let (first, _) = try await TestPeer.connect(try Self.url(client))
            let refused = try await SignalingClient.connect(to: try Self.url(client)) { channel in
                for try await _ in channel.messages {}
            }
            #expect(refused.code == 1013)

            try await first.sendText(String(repeating: "x", count: 1_000))
            #expect(try await first.closed().code == 1009)

            #expect(await eventually { server.connectionCount == 0 })
            let (chatty, _) = try await TestPeer.connect(try Self.url(client))
            for _ in 0..<8 { try await chatty.send(.ping) }
            #expect(try await chatty.closed().code == 1008)
        }
    }

    @Test("a member that stops reading is cut off as a slow consumer within the close grace, not buffered without bound")
    func slowConsumer() async throws {
        var limits = Self.limits()
        limits.outboxCapacity = 8
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let roomText = try await client.pairedRoom()
            let room = try #require(RoomID(roomText))
            let (alice, _) = try await TestPeer.connect(try Self.url(client))
            try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
            _ = try await alice.next()
            // Bob joins by hand (as a member: with his device id) and then never reads again.
            let bob = try await RawWebSocket.open(port: try #require(client.port), receiveBuffer: 4_096)
            try await bob.channel.executeThenClose { _, outbound in
                try await outbound.write(ByteBuffer(string: RawWebSocket.handshake))
                try await outbound.write(RawWebSocket.frame(opcode: 0x1, payload: Array(#"{"type":"join_room","roomId":"\#(roomText)","deviceId":"dev-b"}"#.utf8)))
                guard case .roomReady = try await alice.next() else { throw TestPeer.Timeout(waitingFor: "room_ready") }
                let offer = ClientMessage.signal(.offer(sdp: String(repeating: "s", count: 30_000)))
                // Enough to fill Bob's small receive buffer, the server's send buffer and his queue many times over,
                // yet bounded (a few MB, paced): megabytes pushed as fast as possible starved the other tests' sockets
                // on the shared event loops.
                for index in 0..<200 {
                    try await alice.send(offer)
                    if server.connectionCount < 2 { break }
                    if index % 20 == 19 { try await Task.sleep(for: .milliseconds(20)) }
                }
                // The server closes Bob once his queue overflows (after the close grace, since he never answers).
                #expect(await eventually { server.connectionCount == 1 })
            }
            await alice.close()
        }
    }

    @Test("RFC 6455: a ping frame is answered with its data; a fragmented message is assembled; the close is answered")
    func frames() async throws {
        let (server, _, _) = try TestServer.make(limits: Self.limits())
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let raw = try await RawWebSocket.open(port: port)
            try await raw.channel.executeThenClose { inbound, outbound in
                var reader = RawWebSocket.FrameReader(inbound: inbound.makeAsyncIterator())
                try await outbound.write(ByteBuffer(string: RawWebSocket.handshake))
                try await reader.skipHead()
                let connected = try await reader.next()
                #expect(connected.opcode == 0x1)
                #expect(String(decoding: connected.payload, as: UTF8.self).contains("connected"))

                try await outbound.write(RawWebSocket.frame(opcode: 0x9, payload: Array("are you there".utf8)))
                let pong = try await reader.next()
                #expect(pong.opcode == 0xA)
                #expect(pong.payload == Array("are you there".utf8))

                let text = Array(#"{"type":"ping"}"#.utf8)
                try await outbound.write(RawWebSocket.frame(opcode: 0x1, fin: false, payload: Array(text[..<5])))
                try await outbound.write(RawWebSocket.frame(opcode: 0x9, payload: [1, 2]))
                try await outbound.write(RawWebSocket.frame(opcode: 0x0, payload: Array(text[5...])))
                #expect(try await reader.next().opcode == 0xA)
                let answer = try await reader.next()
                #expect(answer.opcode == 0x1)
                #expect(String(decoding: answer.payload, as: UTF8.self).contains("pong"))

                try await outbound.write(RawWebSocket.frame(opcode: 0x8, payload: [0x03, 0xE8]))
                let close = try await reader.next()
                #expect(close.opcode == 0x8)
                #expect(close.payload.prefix(2) == [0x03, 0xE8])
            }
        }
    }

    @Test("the route sniffer sends only a WebSocket upgrade of / to the signaling handlers")
    func routes() {
        func route(_ head: String) -> SignalingRouteSniffer.Route {
            let buffer = ByteBuffer(string: head)
            let view = buffer.readableBytesView
            return SignalingRouteSniffer.route(ofHead: view[view.startIndex..<view.endIndex])
        }
        #expect(route("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n") == .signaling)
        #expect(route("GET /?x=1 HTTP/1.1\r\nupgrade: WebSocket\r\n\r\n") == .signaling)
        #expect(route("GET / HTTP/1.1\r\nHost: a\r\n\r\n") == .hummingbird)
        #expect(route("GET /push/abc HTTP/1.1\r\nUpgrade: websocket\r\n\r\n") == .hummingbird)
        #expect(route("POST / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n") == .hummingbird)
        #expect(route("GET / HTTP/1.0\r\nUpgrade: websocket\r\n\r\n") == .hummingbird)
        #expect(route("garbage") == .hummingbird)
        let buffer = ByteBuffer(string: "GET / HTTP/1.1\r\nHost: a\r\n\r\nrest")
        #expect(SignalingRouteSniffer.endOfHead(buffer.readableBytesView) == 27)
        #expect(SignalingRouteSniffer.endOfHead(ByteBuffer(string: "GET / HTTP/1.1\r\n").readableBytesView) == nil)
    }
}

/// A WebSocket client written by hand, for frames a library client would not send.
struct RawWebSocket {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static let handshake = """
        GET / HTTP/1.1\r
        Host: localhost\r
        Upgrade: websocket\r
        Connection: Upgrade\r
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
        Sec-WebSocket-Version: 13\r
        \r

        """

    /// Connects; `receiveBuffer` sets the socket's SO_RCVBUF (small, it stops the kernel from absorbing megabytes
    /// for a client that does not read).
    static func open(port: Int, receiveBuffer: Int? = nil) async throws -> RawWebSocket {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: receiveBuffer) }
        let channel = try await bootstrap
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return RawWebSocket(channel: channel)
    }

    /// A masked client frame (payload under 126 bytes).
    static func frame(opcode: UInt8, fin: Bool = true, payload: [UInt8]) -> ByteBuffer {
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode, 0x80 | UInt8(payload.count)]
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return ByteBuffer(bytes: bytes)
    }

    struct Frame {
        let opcode: UInt8
        let payload: [UInt8]
    }

    struct Closed: Error {}

    /// Reads the server's (unmasked) frames after the HTTP head.
    struct FrameReader {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        var bytes: [UInt8] = []

        private mutating func fill(_ count: Int) async throws {
            while bytes.count < count {
                guard let buffer = try await inbound.next() else { throw Closed() }
                bytes += Array(buffer.readableBytesView)
            }
        }

        mutating func skipHead() async throws {
            while true {
                if let end = bytes.indices.dropLast(3).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) {
                    #expect(String(decoding: bytes[..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
                    bytes.removeFirst(end + 4)
                    return
                }
                try await fill(bytes.count + 1)
            }
        }

        mutating func next() async throws -> Frame {
            try await fill(2)
            let opcode = bytes[0] & 0x0F
            var length = Int(bytes[1] & 0x7F)
            var offset = 2
            if length == 126 {
                try await fill(4)
                length = Int(bytes[2]) << 8 | Int(bytes[3])
                offset = 4
            }
            try await fill(offset + length)
            let payload = Array(bytes[offset..<(offset + length)])
            bytes.removeFirst(offset + length)
            return Frame(opcode: opcode, payload: payload)
        }
    }
}
