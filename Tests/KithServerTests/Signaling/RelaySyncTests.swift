import Crypto
import Hummingbird
import HummingbirdTesting
import KithIdentity
import KithRendezvous
import KithServer
import KithSync
import Testing

@Suite("Relay client: pair by join code, open the relay, sync over a secure link through the server")
struct RelaySyncTests {
    static func feedID(_ start: UInt8) throws -> FeedID { try FeedID(rawBytes: (0..<32).map { start &+ UInt8($0) }) }

    static func configuration(_ key: Curve25519.KeyAgreement.PrivateKey, allowing peer: [UInt8]) -> SecureLinkConfiguration {
        SecureLinkConfiguration(localStatic: key, hello: SyncHello(capabilities: .all)) { $0 == peer }
    }

    @Test("code offered, accepted, relay opened by both; one side runs the Noise initiator, 40 + 5 envelopes cross; the server saw only ciphertext")
    func pairAndSync() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            #expect(pairing.signalingURL == "ws://127.0.0.1:\(try #require(client.port))/")
            let code = JoinCode.randomDigits()
            let (deviceA, deviceB) = (DeviceID.random(), DeviceID.random())
            try await pairing.offer(code, device: deviceA)
            async let roomA = pairing.waitForAcceptance(code, device: deviceA, pollInterval: .milliseconds(20), timeout: .seconds(120))
            let roomB = try await pairing.accept(code, device: deviceB)
            #expect(try await roomA == roomB)

            let alice = Curve25519.KeyAgreement.PrivateKey()
            let bob = Curve25519.KeyAgreement.PrivateKey()
            let alicePublic = Array(alice.publicKey.rawRepresentation)
            let bobPublic = Array(bob.publicKey.rawRepresentation)
            let (feedA, feedB) = (try Self.feedID(0xA0), try Self.feedID(0xB0))
            let sourceA = InMemoryFeedSource()
            let sourceB = InMemoryFeedSource()
            let secret = Array("a secret envelope body".utf8)
            for sequence in 0..<40 { await sourceA.append(feed: feedA, sequence: UInt32(sequence), content: secret + Array(repeating: UInt8(sequence), count: 700)) }
            for sequence in 0..<5 { await sourceB.append(feed: feedB, sequence: UInt32(sequence), content: Array(repeating: 0x42, count: 3_000)) }
            for source in [sourceA, sourceB] {
                await source.follow(feedA)
                await source.follow(feedB)
            }
            @Sendable func run(_ transport: RelayTransport, _ role: RelayRole, key: Curve25519.KeyAgreement.PrivateKey, peer: [UInt8], source: InMemoryFeedSource) async throws -> (RelayRole, SyncSessionReport) {
                let configuration = Self.configuration(key, allowing: peer)
                let link = role == .initiator
                    ? try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: nil)
                    : try await SecureLink.accept(over: transport, configuration: configuration)
                #expect(link.peerStaticKey == peer)
                return (role, await SyncSession(link: link, source: source, clock: SystemSyncClock()).run())
            }
            let url = pairing.signalingURL
            let room = roomB
            async let sideA = RelayConnection.open(signalingURL: url, room: room, device: deviceA) { transport, role in
                try await run(transport, role, key: alice, peer: bobPublic, source: sourceA)
            }
            let sideB = try await RelayConnection.open(signalingURL: url, room: room, device: deviceB) { transport, role in
                try await run(transport, role, key: bob, peer: alicePublic, source: sourceB)
            }
            let resultA = try await sideA
            #expect(Set([resultA.0, sideB.0]) == [.initiator, .responder])
            #expect(resultA.1.completed && sideB.1.completed)
            #expect(sideB.1.messagesAccepted == 40)
            #expect(resultA.1.messagesAccepted == 5)
            #expect(await sourceB.sequences(of: feedA) == (0..<40).map(UInt32.init))
            #expect(await sourceA.sequences(of: feedB) == (0..<5).map(UInt32.init))
            let statistics = server.relayStatistics
            #expect(statistics.relayActivations == 2)
            #expect(statistics.bytesRelayed > 1_000)   // zstd makes the repetitive bodies small
            #expect(statistics.framesRefused == 0)
        }
    }

    @Test("a wrong join code is notFoundOrExpired; a peer that never comes times out")
    func failures() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            await #expect(throws: RelayError.rendezvous(.notFoundOrExpired)) {
                _ = try await pairing.accept(try #require(JoinCode("99999999")), device: DeviceID.random())
            }
            let code = JoinCode.randomDigits()
            let device = DeviceID.random()
            try await pairing.offer(code, device: device)
            await #expect(throws: RelayError.notAccepted) {
                _ = try await pairing.waitForAcceptance(code, device: device, pollInterval: .milliseconds(20), timeout: .milliseconds(100))
            }
            let room = try await pairing.accept(code, device: DeviceID.random())
            await #expect(throws: RelayError.peerTimeout) {
                try await RelayConnection.open(signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: .milliseconds(300))) { _, _ in }
            }
        }
        #expect(throws: RelayError.rendezvous(.invalidURL("ftp://x"))) { _ = try RelayPairing(serverURL: "ftp://x") }
    }
}

@Suite("Relay transport: bounds and the end of the link")
struct RelayTransportTests {
    @Test("empty and oversized frames are refused locally; frames sent before the peer left are read, then the link ends")
    func boundsAndEnd() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let code = JoinCode.randomDigits()
            let (deviceA, deviceB) = (DeviceID.random(), DeviceID.random())
            try await pairing.offer(code, device: deviceA)
            let room = try await pairing.accept(code, device: deviceB)
            let url = pairing.signalingURL
            async let sender: Void = RelayConnection.open(signalingURL: url, room: room, device: deviceA) { transport, _ in
                #expect(transport.mtu == SyncLimits.maximumMTU)
                await #expect(throws: SyncTransportError.emptyFrame) { try await transport.send([]) }
                await #expect(throws: SyncTransportError.frameTooLarge(size: 510, mtu: 509)) { try await transport.send([UInt8](repeating: 0, count: 510)) }
                for index in 0..<20 { try await transport.send([UInt8](repeating: UInt8(index), count: 509)) }
            }
            let received: [[UInt8]] = try await RelayConnection.open(signalingURL: url, room: room, device: deviceB) { transport, _ in
                var frames: [[UInt8]] = []
                do throws(SyncTransportError) {
                    while true { frames.append(try await transport.receive()) }
                } catch {
                    #expect(error == .disconnected || error == .closed)
                }
                return frames
            }
            try await sender
            #expect(received == (0..<20).map { [UInt8](repeating: UInt8($0), count: 509) })
        }
    }

    @Test("a peer frame that is empty or longer than a link frame ends the transport with invalidFrameLength")
    func oversizedPeerFrame() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let roomText = try await client.pairedRoom("777777", client1: "raw-a", client2: "relay-b")
            let room = try #require(RoomID(roomText))
            let (raw, _) = try await RelayTestPeer.connect(pairing.signalingURL)
            try await raw.send(.joinRoom(roomID: room, deviceID: DeviceID("raw-a")))
            async let outcome: SyncTransportError? = RelayConnection.open(signalingURL: pairing.signalingURL, room: room, device: DeviceID("relay-b")) { transport, _ in
                do throws(SyncTransportError) {
                    while true { _ = try await transport.receive() }
                } catch {
                    return error
                }
            }
            for _ in 0..<2 { _ = try await raw.next() }   // room_joined, room_ready
            try await raw.send(.relayStart)
            #expect(try await raw.next() == .message(.relayReady(roomID: room)))
            // A link frame: kind 0x01, then 599 bytes (above the 509-byte MTU).
            try await raw.sendBinary([UInt8](repeating: 1, count: 600))
            #expect(try await outcome == .invalidFrameLength(599, mtu: 509))
            await raw.close()
        }
    }
}
