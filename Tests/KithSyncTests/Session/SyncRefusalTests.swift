import KithIdentity
import KithSync
import Testing

/// The sender learns when the receiver refused entries, and a receiver ingests only messages of
/// feeds offered in the session (issue 11, item 2, sync half).
@Suite("Refused and unoffered messages", .timeLimit(.minutes(3)))
struct SyncRefusalTests {
    let parties = LinkParties()

    @Test("refusals by the receiver are counted per feed on the sender, and the session is not complete")
    func refusalsReachTheSender() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 4) { Fixtures.envelope(300, seed: Int($0)) }
        await bob.setRefusesIngest(true)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.alice.messagesSent == 4)
        #expect(result.alice.messagesRefusedByPeer == 4)
        #expect(result.alice.refusedByFeed[feed] == 4)
        #expect(!result.alice.completed)
        #expect(result.alice.interruption == nil && result.alice.violation == nil && result.alice.localFailure == nil)
        #expect(result.bob.messagesInvalid == 4)
    }

    /// Bob follows `feed`; the raw peer answers his request with `count` offered and then sends
    /// `sent` messages of `messageFeed`.
    private func rawPeerSends(offering count: UInt32, messages sent: UInt32, of messageFeed: FeedID, bob: InMemoryFeedSource) async throws -> SyncSessionReport {
        try await parties.againstRawPeer(capabilities: [], bob: bob) { alice in
            var requests: [SyncRequest] = []
            while let frame = try? await alice.receive() {
                if case .request(let request) = frame { requests.append(request) }
                guard case .done = frame else { continue }
                var frames: [SyncFrame] = [.done]
                frames += requests.map { .offer(SyncOffer(feedTag: $0.feedTag, haveSequence: sent, messageCount: count)) }
                for sequence in 0..<sent {
                    let envelope = InMemoryFeedSource.envelope(feed: messageFeed, sequence: sequence, content: [1, 2, 3])
                    let body = MessageBody.encode(envelope: envelope, compressionNegotiated: false, dictionaryNegotiated: false)
                    let chunks = try MessageFragmenter.chunks(messageID: SyncMessageID(envelope: envelope), body: body, chunkDataLength: alice.layout.chunkDataLength)
                    frames += chunks.map(SyncFrame.chunk)
                }
                try await alice.send(frames)
            }
        }
    }

    @Test("a message of a feed that was not offered is a violation and is not ingested")
    func unofferedFeed() async throws {
        let followed = try Fixtures.feedID(0xA0)
        let other = try Fixtures.feedID(0xB0)
        let bob = InMemoryFeedSource()
        await bob.follow(followed)
        await bob.follow(other)
        // Bob requests both feeds; the peer offers nothing and sends a message of `other` anyway.
        let report = try await rawPeerSends(offering: 0, messages: 1, of: other, bob: bob)
        #expect(report.violation == .unofferedMessage)
        #expect(await bob.sequences(of: other).isEmpty)
        #expect(report.messagesAccepted == 0)
    }

    @Test("messages beyond an offer's count are a violation and are not ingested")
    func beyondOfferedCount() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let bob = InMemoryFeedSource()
        await bob.follow(feed)
        let report = try await rawPeerSends(offering: 2, messages: 5, of: feed, bob: bob)
        #expect(report.violation == .unofferedMessage)
        #expect(await bob.sequences(of: feed).count <= 2)
    }
}
