import Crypto
import KithSync
import Testing

@Suite("SyncSession protocol violations", .timeLimit(.minutes(3)))
struct SyncSessionViolationTests {
    let parties = LinkParties()

    @Test("an offer for a feed that was not requested ends the session")
    func unexpectedOffer() async throws {
        let bob = InMemoryFeedSource()
        let report = try await parties.againstRawPeer(capabilities: [], bob: bob) { alice in
            try await alice.send([.done, .offer(SyncOffer(feedTag: try Fixtures.feedTag(0x55), haveSequence: 3, messageCount: 1))])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedOffer)
        #expect(!report.completed)
    }

    @Test("a request after done ends the session")
    func requestAfterDone() async throws {
        let bob = InMemoryFeedSource()
        let report = try await parties.againstRawPeer(capabilities: [], bob: bob) { alice in
            try await alice.send([.done, .request(SyncRequest(feedTag: try Fixtures.feedTag(1), haveSequence: 0))])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedRequest)
    }

    @Test("a second done ends the session")
    func doubleDone() async throws {
        let bob = InMemoryFeedSource()
        let report = try await parties.againstRawPeer(capabilities: [], bob: bob) { alice in
            try await alice.send([.done, .done])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedDone)
    }

    @Test("a message that does not hash to its id is acknowledged invalid and not stored")
    func forgedMessage() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let bob = InMemoryFeedSource()
        await bob.follow(feed)
        let acks = try await withThrowingTaskGroup(of: [SyncAck].self) { group in
            let (central, peripheral) = SimulatedBLELink.makePair()
            let (connected, accepted) = await parties.establish(
                central: central, peripheral: peripheral,
                initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic], capabilities: []),
                responder: parties.configuration(parties.bob, allowing: [parties.alicePublic], capabilities: [])
            )
            let alice = try connected.get()
            let bobLink = try accepted.get()
            group.addTask {
                _ = await SyncSession(link: bobLink, source: bob, clock: peripheral).run()
                return []
            }
            group.addTask {
                let envelope = InMemoryFeedSource.envelope(feed: feed, sequence: 0, content: [1, 2, 3])
                let wrongID = SyncMessageID(envelope: envelope + [0])
                var acks: [SyncAck] = []
                while true {
                    guard let frame = try? await alice.receive() else { break }
                    switch frame {
                    case .request(let request):
                        try await alice.send([
                            .done,
                            .offer(SyncOffer(feedTag: request.feedTag, haveSequence: 0, messageCount: 1)),
                            .chunk(SyncChunk(messageID: wrongID, chunkIndex: 0, totalChunks: 1, data: envelope)),
                        ])
                    case .ack(let ack):
                        acks.append(ack)
                    default:
                        break
                    }
                }
                return acks
            }
            var all: [SyncAck] = []
            for try await part in group { all += part }
            return all
        }
        #expect(acks.count == 1)
        #expect(acks.first?.status == .invalid)
        #expect(await bob.sequences(of: feed).isEmpty)
    }
}
