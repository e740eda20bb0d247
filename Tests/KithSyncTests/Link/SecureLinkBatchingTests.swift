import Crypto
import KithSync
import Testing

@Suite("SecureLink batching (one sealed frame per batch of records)", .timeLimit(.minutes(3)))
struct SecureLinkBatchingTests {
    let parties = LinkParties()

    func connectedPair(mtu: Int = 244) async throws -> (SecureLink, SecureLink, SimulatedBLEEndpoint) {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: mtu, recordsTranscript: true))
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        return (try connected.get(), try accepted.get(), central)
    }

    func chunk(_ index: Int, length: Int) throws -> SyncFrame {
        .chunk(SyncChunk(messageID: try Fixtures.messageID(UInt8(index)), chunkIndex: 0, totalChunks: 1, data: Fixtures.randomBytes(length, seed: UInt64(index))))
    }

    @Test("enqueued records leave only when a sealed frame is full, on flush or on close")
    func enqueueFlushClose() async throws {
        let (alice, bob, central) = try await connectedPair()
        let before = await central.statistics().framesOnAir
        try await alice.enqueue([.done, .ack(SyncAck(messageID: try Fixtures.messageID(1), status: .ok))])
        #expect(await central.statistics().framesOnAir == before)
        #expect(await alice.bufferedOutgoingBytes == 35)
        try await alice.flush()
        #expect(await alice.sealedFramesSent == 1)
        #expect(try await bob.receive() == .done)
        #expect(await bob.hasPendingRecords)
        #expect(try await bob.receive() == .ack(SyncAck(messageID: try Fixtures.messageID(1), status: .ok)))
        #expect(await !bob.hasPendingRecords)
        try await alice.enqueue([.done])
        await alice.close()
        #expect(try await bob.receive() == .done)
    }

    @Test("six 600-byte messages share one sealed frame of 16 link frames at MTU 244")
    func messagesShareSealedFrames() async throws {
        let (alice, bob, central) = try await connectedPair()
        let before = await central.statistics()
        let frames = try (0..<12).map { try chunk($0, length: 600) }
        try await alice.send(frames)
        for frame in frames { #expect(try await bob.receive() == frame) }
        #expect(await alice.sealedFramesSent == 2)
        let after = await central.statistics()
        // 6 × (600 + 39) + 18 = 3852 sealed bytes = 16 link frames each.
        #expect(after.framesOnAir - before.framesOnAir == 32)
        #expect(after.bytesOnAir - before.bytesOnAir == 2 * (3852 + 16))
    }

    @Test("a message larger than a sealed frame is carried by several full chunks")
    func largeMessage() async throws {
        let layout = try FrameLayout(mtu: 244)
        let body = Fixtures.randomBytes(10_000, seed: 9)
        let id = SyncMessageID(envelope: body)
        let chunks = try MessageFragmenter.chunks(messageID: id, body: body, chunkDataLength: layout.chunkDataLength)
        #expect(chunks.count == 3)
        let (alice, bob, _) = try await connectedPair()
        try await alice.send(chunks.map(SyncFrame.chunk))
        var reassembler = MessageReassembler()
        var message: ReceivedMessage?
        for _ in chunks {
            guard case .chunk(let chunk) = try await bob.receive() else { Issue.record("expected a chunk"); return }
            message = try reassembler.accept(chunk, now: 0) ?? message
        }
        #expect(message?.envelope == body)
        #expect(await alice.sealedFramesSent == 3)
    }

    @Test("a one-way session batches acks: far fewer sealed frames than messages come back")
    func acksAreBatched() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for sequence in 0..<60 {
            await alice.append(feed: feed, sequence: UInt32(sequence), content: Fixtures.envelope(560, seed: sequence))
        }
        await alice.follow(feed)
        await bob.follow(feed)
        let (aliceLink, bobLink, central) = try await connectedPair()
        async let bobReport = SyncSession(link: bobLink, source: bob, clock: central).run()
        let aliceReport = await SyncSession(link: aliceLink, source: alice, clock: central).run()
        #expect(aliceReport.completed)
        #expect(await bobReport.messagesAccepted == 60)
        #expect(await bobLink.sealedFramesSent <= 15)
        #expect(await aliceLink.sealedFramesSent <= 12)
    }
}
