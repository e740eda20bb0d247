@testable import KithServer
import KithRendezvous
import NIOCore
import Testing

@Suite("Cross-node event codec: every event round-trips; malformed payloads are refused")
struct SignalEventCodecTests {
    static let room = RoomID("room-1")!
    static let sender = MemberAddress(node: "node-a", client: ClientID("c-1")!)
    static let target = ClientID("c-2")!

    static func same(_ a: SignalEvent, _ b: SignalEvent) -> Bool {
        switch (a, b) {
        case (.peerJoined(let p1, let r1, let m1), .peerJoined(let p2, let r2, let m2)): p1 == p2 && r1 == r2 && m1 == m2
        case (.relayed(let f1, let r1, let m1), .relayed(let f2, let r2, let m2)): f1 == f2 && r1 == r2 && m1 == m2
        case (.peerGone(let r1, let m1), .peerGone(let r2, let m2)), (.removed(let r1, let m1), .removed(let r2, let m2)): r1 == r2 && m1 == m2
        case (.relayRequested(let f1, let r1), .relayRequested(let f2, let r2)): f1 == f2 && r1 == r2
        case (.relayFrame(let f1, let r1, let b1), .relayFrame(let f2, let r2, let b2)): f1 == f2 && r1 == r2 && b1 == b2
        default: false
        }
    }

    @Test("peer joined, relayed, gone, removed, relay requested, relay frame (empty and 64 KiB)")
    func roundTrip() throws {
        let events: [SignalEvent] = [
            .peerJoined(peer: Self.sender, room: Self.room, ready: .roomReady(roomID: Self.room, message: SignalingText.roomReady, userCount: 2, isInitiator: true)),
            .relayed(from: Self.sender, room: Self.room, message: .relayed(RelayedSignal(from: Self.sender.client, roomID: Self.room, payload: .offer(sdp: "v=0\r\n\"quoted\"")))),
            .peerGone(room: Self.room, message: .peerDisconnected(message: SignalingText.peerDisconnected)),
            .removed(room: Self.room, message: .leftRoom(roomID: Self.room)),
            .relayRequested(from: Self.sender, room: Self.room),
            .relayFrame(from: Self.sender, room: Self.room, bytes: ByteBuffer(bytes: [])),
            .relayFrame(from: Self.sender, room: Self.room, bytes: ByteBuffer(bytes: (0..<65_536).map { UInt8(truncatingIfNeeded: $0) })),
        ]
        for event in events {
            let (decoded, to) = try SignalEventCodec.decode(SignalEventCodec.encode(event, to: Self.target))
            #expect(to == Self.target)
            #expect(Self.same(decoded, event))
        }
    }

    @Test("not JSON, nested, missing or unknown members, bad base64, bad inner message, oversized: refused", arguments: [
        "not json",
        #"{"to":"c","room":"r","kind":"gone","message":{"type":"pong"}}"#,
        #"{"room":"r","kind":"gone","message":"{\"type\":\"pong\"}"}"#,
        #"{"to":"c","room":"r","kind":"teleport"}"#,
        #"{"to":"c","room":"r","kind":"frame","node":"n","from":"c1","bytes":"!!"}"#,
        #"{"to":"c","room":"r","kind":"relay_start","from":"c1"}"#,
        #"{"to":"c","room":"r","kind":"gone","message":"{\"type\":\"join_room\",\"roomId\":\"r\"}"}"#,
        #"{"to":"c","room":"r","kind":"gone","message":"x","pad":""# + String(repeating: "a", count: 300_000) + #""}"#,
    ])
    func refusals(payload: String) {
        #expect(throws: SignalEventCodec.Malformed.self) { try SignalEventCodec.decode(payload) }
    }

    @Test("node channels are PostgreSQL identifiers: kith_ and 40 lowercase hex digits, distinct per node")
    func channels() {
        let a = PostgresSignalBus.channel(of: "node-a")
        #expect(a.count == 45 && a.hasPrefix("kith_"))
        #expect(a.dropFirst(5).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(a != PostgresSignalBus.channel(of: "node-b"))
    }
}
