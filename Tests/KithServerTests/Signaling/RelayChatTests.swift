import Crypto
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import KithSync
import Testing

@Suite("Relay chat: Noise XX over the relay, short authentication string, bounded lines")
struct RelayChatTests {
    @Test("both sides derive the same code and static keys; lines cross as sent (control characters included); bye ends it")
    func chatRoundTrip() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let code = JoinCode.randomDigits()
            let (deviceA, deviceB) = (DeviceID.random(), DeviceID.random())
            try await pairing.offer(code, device: deviceA)
            let room = try await pairing.accept(code, device: deviceB)
            let (keyA, keyB) = (Curve25519.KeyAgreement.PrivateKey(), Curve25519.KeyAgreement.PrivateKey())
            let url = pairing.signalingURL
            let hostile = "hi \u{1B}[2J\u{7} there"
            async let sideA: (String, [UInt8], [ChatMessage]) = RelayConnection.open(signalingURL: url, room: room, device: deviceA) { transport, role in
                let chat = try await RelayChat.establish(over: transport, role: role, localStatic: keyA)
                try await chat.send("hello from A")
                try await chat.send(hostile)
                var received: [ChatMessage] = []
                while true {
                    let message = try await chat.receive()
                    received.append(message)
                    if message == .bye { break }
                }
                return (chat.authenticationString, chat.peerStaticKey, received)
            }
            let sideB: (String, [UInt8], [ChatMessage]) = try await RelayConnection.open(signalingURL: url, room: room, device: deviceB) { transport, role in
                let chat = try await RelayChat.establish(over: transport, role: role, localStatic: keyB)
                var received = [try await chat.receive(), try await chat.receive()]
                await #expect(throws: ChatError.lineTooLong(401)) { try await chat.send(String(repeating: "x", count: 401)) }
                try await chat.send(String(repeating: "é", count: 200))
                await chat.sayBye()
                received.append(.bye)
                return (chat.authenticationString, chat.peerStaticKey, received)
            }
            let resultA = try await sideA
            #expect(resultA.0 == sideB.0)
            #expect(resultA.0.count == 9)
            #expect(resultA.1 == Array(keyB.publicKey.rawRepresentation))
            #expect(sideB.1 == Array(keyA.publicKey.rawRepresentation))
            #expect(sideB.2 == [.line("hello from A"), .line(hostile), .bye])
            #expect(resultA.2 == [.line(String(repeating: "é", count: 200)), .bye])
        }
    }

    @Test("a tampered or malformed frame is refused")
    func refusals() async throws {
        let (a, b) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: 509, bandwidthBitsPerSecond: 10_000_000))
        async let chatA = RelayChat.establish(over: a, role: .initiator, localStatic: .init())
        let chatB = try await RelayChat.establish(over: b, role: .responder, localStatic: .init())
        _ = try await chatA
        try await a.send([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
        await #expect(throws: ChatError.authenticationFailed) { try await chatB.receive() }
    }
}
