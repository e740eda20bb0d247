import Crypto
import KithSync
import Testing

@Suite("SecureLink over SimulatedBLELink", .timeLimit(.minutes(3)))
struct SecureLinkTests {
    let parties = LinkParties()

    func sampleFrames() throws -> [SyncFrame] {
        [
            .request(SyncRequest(feedTag: try Fixtures.feedTag(0xA0), haveSequence: 12)),
            .offer(SyncOffer(feedTag: try Fixtures.feedTag(0xB0), haveSequence: 40, messageCount: 3)),
            .ack(SyncAck(messageID: try Fixtures.messageID(0xC0), status: .ok)),
            .done,
        ]
    }

    @Test("XX handshake authenticates both sides and carries frames both ways", arguments: [20, 182, 244, 509])
    func xxRoundTrip(mtu: Int) async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: mtu))
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        #expect(alice.peerStaticKey == parties.bobPublic)
        #expect(bob.peerStaticKey == parties.alicePublic)
        #expect(alice.handshakeHash == bob.handshakeHash)
        #expect(alice.negotiated.capabilities == .all)
        let frames = try sampleFrames()
        try await alice.send(frames)
        for frame in frames { #expect(try await bob.receive() == frame) }
        try await bob.send(.done)
        #expect(try await alice.receive() == .done)
        await alice.close()
    }

    @Test("IK handshake when the responder's key is known")
    func ikRoundTrip() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic], capabilities: []),
            responder: parties.configuration(parties.bob, allowing: [parties.alicePublic]),
            responderKey: parties.bobPublic
        )
        let alice = try connected.get()
        let bob = try accepted.get()
        #expect(bob.peerStaticKey == parties.alicePublic)
        #expect(bob.negotiated.capabilities == [])
        try await alice.send(try sampleFrames())
        #expect(try await bob.receive() == (try sampleFrames())[0])
        let stats = await central.statistics()
        #expect(stats.framesOnAir >= 3)
    }

    @Test("a non-contact initiator is refused and receives nothing beyond the handshake")
    func responderRefusesNonContact() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(recordsTranscript: true))
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.mallory, allowing: [parties.bobPublic]),
            responder: parties.configuration(parties.bob, allowing: [parties.alicePublic])
        )
        #expect(accepted.failure == .peerNotAllowed)
        // Mallory's side completed XX but the link is closed: sending fails.
        if case .success(let mallory) = connected {
            await #expect(throws: SecureLinkError.self) {
                try await mallory.send(.request(SyncRequest(feedTag: try Fixtures.feedTag(1), haveSequence: 0)))
            }
        }
        // Exactly the three XX messages went on the air (one frame each at MTU 244).
        #expect(await central.transcript().count == 3)
    }

    @Test("an initiator refuses a non-contact responder before sending its static key")
    func initiatorRefusesNonContact() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(recordsTranscript: true))
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responder: parties.configuration(parties.mallory, allowing: [parties.alicePublic])
        )
        #expect(connected.failure == .peerNotAllowed)
        #expect(accepted.failure != nil)
        #expect(await central.transcript().count == 2)
    }

    @Test("IK: a non-contact initiator gets no reply")
    func ikNonContact() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(recordsTranscript: true))
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.mallory, allowing: [parties.bobPublic]),
            responder: parties.configuration(parties.bob, allowing: [parties.alicePublic]),
            responderKey: parties.bobPublic
        )
        #expect(accepted.failure == .peerNotAllowed)
        #expect(connected.failure != nil)
        #expect(await central.transcript().count == 1)
    }

    @Test("an IK-only responder stays silent to an XX initiator")
    func ikOnlyResponder() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(recordsTranscript: true))
        var responder = parties.configuration(parties.bob, allowing: [parties.alicePublic])
        responder.acceptedPatterns = [.ik]
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.mallory, allowing: [parties.bobPublic]),
            responder: responder
        )
        #expect(accepted.failure == .unsupportedPattern(SecureLinkPattern.xx.rawValue))
        #expect(connected.failure != nil)
        #expect(await central.transcript().count == 1)
    }

    @Test("IK with a wrong responder key fails the handshake")
    func ikWrongKey() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.alice, allowing: [Array(parties.mallory.publicKey.rawRepresentation)]),
            responder: parties.configuration(parties.bob, allowing: [parties.alicePublic]),
            responderKey: Array(parties.mallory.publicKey.rawRepresentation)
        )
        #expect(accepted.failure == .handshake(.authenticationFailed))
        #expect(connected.failure != nil)
    }

    @Test("a passive observer sees no feed id, message id, static key or Hello in the clear")
    func passiveObserver() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: 20, recordsTranscript: true))
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        try await alice.send(try sampleFrames())
        for _ in 0..<4 { _ = try await bob.receive() }
        let air = await central.transcript().flatMap { $0.dropFirst() }
        let secrets: [[UInt8]] = [
            Fixtures.bytes32(0xA0), Fixtures.bytes32(0xB0), Fixtures.bytes32(0xC0),
            parties.alicePublic, parties.bobPublic,
        ]
        for secret in secrets {
            for window in stride(from: 0, to: secret.count - 8, by: 8) {
                let needle = Array(secret[window..<(window + 8)])
                #expect(!contains(air, needle))
            }
        }
    }

    @Test("a tampered sealed frame is rejected and closes the link")
    func tamperedFrame() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        // Flip one tag bit of the 3rd frame alice sends (her first sealed frame after XX messages 1 and 3).
        let tampering = InterceptingTransport(central) { index, frame in
            guard index == 2 else { return [frame] }
            var altered = frame
            altered[altered.count - 1] ^= 0x01
            return [altered]
        }
        let (connected, accepted) = await parties.establishContacts(central: tampering, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        try await alice.send(.done)
        await #expect(throws: SecureLinkError.authenticationFailed) { try await bob.receive() }
        await #expect(throws: SecureLinkError.closed) { try await bob.receive() }
    }

    @Test("a replayed sealed frame is rejected")
    func replayedFrame() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let replaying = InterceptingTransport(central) { index, frame in index == 2 ? [frame, frame] : [frame] }
        let (connected, accepted) = await parties.establishContacts(central: replaying, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        try await alice.send(.done)
        #expect(try await bob.receive() == .done)
        await #expect(throws: SecureLinkError.authenticationFailed) { try await bob.receive() }
    }

    @Test("a tampered handshake message fails the handshake")
    func tamperedHandshake() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let tampering = InterceptingTransport(peripheral) { index, frame in
            guard index == 0 else { return [frame] }
            var altered = frame
            altered[altered.count - 1] ^= 0x80
            return [altered]
        }
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: tampering)
        #expect(connected.failure == .handshake(.authenticationFailed))
        #expect(accepted.failure != nil)
    }

    @Test("lost frames after the handshake drop only the damaged sealed frames")
    func lossIsTolerated() async throws {
        let configuration = SimulatedBLEConfiguration(mtu: 20, lossProbability: 0.05, lossSeed: 42, lossStartsAfterFrames: 40)
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        let sent = try (0..<200).map { SyncFrame.ack(SyncAck(messageID: try Fixtures.messageID(UInt8($0)), status: .ok)) }
        for frame in sent { try await alice.send(frame) }
        await alice.close()
        var received: [SyncFrame] = []
        while let frame = try? await bob.receive() { received.append(frame) }
        #expect(received.count < sent.count)
        #expect(received.count > sent.count / 2)
        #expect(received.allSatisfy { sent.contains($0) })
        #expect(await bob.damagedLinkMessages > 0)
        #expect(await central.statistics().framesLost > 0)
    }

    @Test("a lost handshake frame fails cleanly instead of hanging")
    func handshakeLoss() async throws {
        let configuration = SimulatedBLEConfiguration(mtu: 20, lossProbability: 0.3, lossSeed: 7)
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        #expect(connected.failure != nil || accepted.failure != nil)
    }

    @Test("padding hides record sizes: every sealed frame is full size")
    func paddedFrames() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(recordsTranscript: true))
        let (connected, accepted) = await parties.establish(
            central: central, peripheral: peripheral,
            initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic], padding: true),
            responder: parties.configuration(parties.bob, allowing: [parties.alicePublic])
        )
        let alice = try connected.get()
        let bob = try accepted.get()
        try await alice.send(.done)
        try await alice.send(.ack(SyncAck(messageID: try Fixtures.messageID(1), status: .ok)))
        #expect(try await bob.receive() == .done)
        #expect(try await bob.receive() == .ack(SyncAck(messageID: try Fixtures.messageID(1), status: .ok)))
        let frames = await central.transcript().suffix(2)
        #expect(frames.allSatisfy { $0.count == 244 })
    }

    @Test("a record larger than a sealed frame is refused")
    func recordTooLarge() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, _) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let chunk = SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 0, totalChunks: 1, data: [UInt8](repeating: 1, count: 3832))
        await #expect(throws: SecureLinkError.recordTooLarge(3871, capacity: 3870)) { try await alice.send(.chunk(chunk)) }
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<(start + needle.count)]) == needle { return true }
    }
    return false
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
