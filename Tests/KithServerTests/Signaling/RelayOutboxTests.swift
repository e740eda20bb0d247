@testable import KithServer
import KithRendezvous
import NIOCore
import Testing

@Suite("Relay outbox: a reader that falls behind is closed, the queue stays bounded")
struct RelayOutboxTests {
    static let room = RoomID("room-outbox")!
    static let peer = MemberAddress(node: "n", client: ClientID("peer")!)

    /// A connection in `room` with `peer`, both in relay mode, whose writer never runs.
    static func relayingConnection(_ limits: RelayLimits) -> (SignalingConnection, AsyncStream<SignalingOutbound>) {
        let (stream, continuation) = AsyncStream.makeStream(of: SignalingOutbound.self, bufferingPolicy: .bufferingOldest(10_000))
        let connection = SignalingConnection(
            address: MemberAddress(node: "n", client: ClientID("me")!), outbox: StreamSignalingOutbox(continuation: continuation),
            rule: RateLimitRule(burst: 100, perSecond: 100), now: 0, bufferLimit: 256, relayLimits: limits, statistics: RelayStatistics())
        connection.beginJoin(room)
        connection.finishJoin(room, joined: JoinedRoom(isInitiator: true, peer: RoomMember(address: peer, isInitiator: false), replaced: nil, previous: nil, alreadyMember: false), messages: [])
        _ = connection.requestRelay()
        connection.receive(.relayRequested(from: peer, room: room))
        return (connection, stream)
    }

    @Test("queued relay bytes above the outbox bound close the connection as a slow consumer (1008)")
    func byteBound() {
        var limits = RelayLimits()
        limits.outboxBytes = 4_096
        let (connection, _) = Self.relayingConnection(limits)
        #expect(connection.relayTarget != nil)
        for _ in 0..<8 { connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [UInt8](repeating: 0, count: 509)))) }
        #expect(connection.closeReason == nil)
        connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [UInt8](repeating: 0, count: 509))))
        #expect(connection.closeReason == .slowConsumer)
    }

    @Test("queued relay frames above the frame bound close the connection; written frames free their place")
    func frameBound() async {
        var limits = RelayLimits()
        limits.outboxFrames = 4
        let (connection, stream) = Self.relayingConnection(limits)
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()   // relay_ready
        for index in 0..<4 { connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [UInt8(index)]))) }
        if let written = await iterator.next() { connection.written(written) }
        connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [4])))
        #expect(connection.closeReason == nil)
        connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [5])))
        #expect(connection.closeReason == .slowConsumer)
    }

    @Test("frames from a connection that is not the peer, or before both asked, are not queued")
    func strangersIgnored() async {
        let (stream, continuation) = AsyncStream.makeStream(of: SignalingOutbound.self)
        let connection = SignalingConnection(
            address: MemberAddress(node: "n", client: ClientID("me")!), outbox: StreamSignalingOutbox(continuation: continuation),
            rule: RateLimitRule(burst: 100, perSecond: 100), now: 0, bufferLimit: 256, relayLimits: RelayLimits(), statistics: RelayStatistics())
        connection.beginJoin(Self.room)
        connection.finishJoin(Self.room, joined: JoinedRoom(isInitiator: true, peer: RoomMember(address: Self.peer, isInitiator: false), replaced: nil, previous: nil, alreadyMember: false), messages: [])
        connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [1])))   // relay not active
        _ = connection.requestRelay()
        connection.receive(.relayRequested(from: Self.peer, room: Self.room))
        connection.receive(.relayFrame(from: MemberAddress(node: "n", client: ClientID("eve")!), room: Self.room, bytes: ByteBuffer(bytes: [2])))
        connection.receive(.relayFrame(from: Self.peer, room: Self.room, bytes: ByteBuffer(bytes: [3])))
        continuation.finish()
        var frames: [[UInt8]] = []
        var ready = 0
        for await item in stream {
            switch item {
            case .relay(let bytes): frames.append(Array(bytes.readableBytesView))
            case .message(.relayReady): ready += 1
            case .message: break
            }
        }
        #expect(ready == 1)
        #expect(frames == [[3]])
    }
}
