import Crypto
import KithSync
import Synchronization
import Testing

/// A handler that sends one message and finishes once it read one from the peer.
private actor OneMessageHandler: SyncSideHandler {
    let outgoing: [UInt8]
    private(set) var received: [[UInt8]] = []
    private(set) var binding: [UInt8] = []
    private(set) var wasInterrupted = false

    init(outgoing: [UInt8]) { self.outgoing = outgoing }

    func opening(peer: SyncPeer, channelBinding: [UInt8]) async -> SyncSideStep {
        binding = channelBinding
        return SyncSideStep(messages: [outgoing], finished: false)
    }

    func received(_ message: [UInt8], peer: SyncPeer) async -> SyncSideStep {
        received.append(message)
        return SyncSideStep(finished: true)
    }

    func interrupted(peer: SyncPeer) async { wasInterrupted = true }
}

@Suite("The side phase before a sync session", .timeLimit(.minutes(3)))
struct SyncSidePhaseTests {
    let parties = LinkParties()

    @Test("both sides exchange whole messages (one of 300 KB, fragmented) bound to the same handshake hash, then a session runs on the link")
    func exchangeThenSession() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let (aliceLink, bobLink) = (try connected.get(), try accepted.get())
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let aliceHandler = OneMessageHandler(outgoing: big)
        let bobHandler = OneMessageHandler(outgoing: [1, 2, 3])
        async let bobSide: Void = SyncSidePhase.run(link: bobLink, handler: bobHandler, clock: peripheral)
        try await SyncSidePhase.run(link: aliceLink, handler: aliceHandler, clock: central)
        try await bobSide
        #expect(await bobHandler.received == [big])
        #expect(await aliceHandler.received == [[1, 2, 3]])
        #expect(await aliceHandler.binding == aliceLink.handshakeHash)
        #expect(await bobHandler.binding == aliceLink.handshakeHash)
        // The records that follow belong to the session.
        async let bobReport = SyncSession(link: bobLink, source: InMemoryFeedSource(), clock: peripheral).run()
        let aliceReport = await SyncSession(link: aliceLink, source: InMemoryFeedSource(), clock: central).run()
        #expect(aliceReport.completed)
        #expect(await bobReport.completed)
    }

    @Test("a session record during the side phase stops it; a side record inside the session is a violation")
    func recordsOutOfPlace() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let (aliceLink, bobLink) = (try connected.get(), try accepted.get())
        let handler = OneMessageHandler(outgoing: [9])
        async let outcome: SyncSidePhaseError? = {
            do throws(SyncSidePhaseError) {
                try await SyncSidePhase.run(link: bobLink, handler: handler, clock: peripheral)
                return nil
            } catch {
                return error
            }
        }()
        _ = try await aliceLink.receive()
        try await aliceLink.send([.done])
        guard case .unexpectedRecord(.done)? = await outcome else { Issue.record("expected unexpectedRecord(done)"); return }
        #expect(await handler.wasInterrupted)

        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            let chunk = SyncChunk(messageID: try SyncMessageID(bytes: [UInt8](repeating: 7, count: 32)), chunkIndex: 0, totalChunks: 1, data: [1])
            try await alice.send([.sideChunk(chunk), .done])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedSideRecord)
    }
}
