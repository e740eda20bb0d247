import KithIdentity
import KithSync
import Testing

/// A request names feeds blinded under a key of the link, so a peer learns only which of the
/// feeds it can name this side follows (issue 11, item 17; docs/sync.md 9b).
@Suite("Blinded feed ids in requests", .timeLimit(.minutes(3)))
struct FeedBlindingTests {
    let parties = LinkParties()

    /// The requests Bob's session sends to a hand-driven peer, and the peer's blinding.
    private func requestsSeen(bob: InMemoryFeedSource) async throws -> (requests: [SyncRequest], blinding: SyncFeedBlinding) {
        let box = RequestBox()
        _ = try await parties.againstRawPeer(capabilities: [], bob: bob) { alice in
            await box.setBlinding(SyncFeedBlinding(link: alice))
            while let frame = try? await alice.receive() {
                if case .request(let request) = frame { await box.append(request) }
                if case .done = frame { break }
            }
            await alice.close()
        }
        return (await box.requests, try #require(await box.blinding))
    }

    @Test("requests carry no followed feed id; the same feed blinds to different ids on two links")
    func requestsAreBlinded() async throws {
        let followed = [try Fixtures.feedID(0xA0), try Fixtures.feedID(0xB0), try Fixtures.feedID(0xC0)]
        let bob = InMemoryFeedSource()
        for feed in followed { await bob.follow(feed) }
        let first = try await requestsSeen(bob: bob)
        let second = try await requestsSeen(bob: bob)
        #expect(first.requests.count == 3 && second.requests.count == 3)
        var encoded: [UInt8] = []
        for request in first.requests + second.requests { encoded += try SyncFrame.request(request).encoded() }
        for feed in followed {
            #expect(!Self.contains(encoded, feed.rawBytes))
            // Only a peer that can name the feed matches it, and only on its own link.
            #expect(first.requests.contains { $0.feedTag == first.blinding.blind(feed) })
            #expect(second.requests.contains { $0.feedTag == second.blinding.blind(feed) })
            #expect(first.blinding.blind(feed) != second.blinding.blind(feed))
        }
    }

    @Test("both ends of a link derive the same blinding; blinded ids are 32 bytes")
    func bothEndsAgree() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let bob = try accepted.get()
        let feed = try Fixtures.feedID(0xA0)
        #expect(SyncFeedBlinding(link: alice).blind(feed) == SyncFeedBlinding(link: bob).blind(feed))
        #expect(SyncFeedBlinding(link: alice).blind(feed).bytes.count == 32)
        #expect(SyncFeedBlinding(link: alice).blind(feed).bytes != feed.rawBytes)
        await alice.close(); await bob.close()
    }

    @Test("a peer holding none of the followed feeds offers nothing; feeds both hold still sync")
    func onlyHeldFeedsMatch() async throws {
        let shared = try Fixtures.feedID(0xA0)
        let secret = try Fixtures.feedID(0xB0)
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for sequence in UInt32(0)..<3 { await bob.append(feed: shared, sequence: sequence, content: [1]) }
        await bob.follow(shared)
        await alice.follow(shared)
        await alice.follow(secret)
        let result = try await runInMemorySession(parties, alice: alice, bob: bob)
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.alice.messagesAccepted == 3)
        #expect(result.bob.requestsReceived == 2)
        #expect(await alice.sequences(of: shared) == [0, 1, 2])
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}

/// Collects what the hand-driven peer saw.
private actor RequestBox {
    var requests: [SyncRequest] = []
    var blinding: SyncFeedBlinding?

    func append(_ request: SyncRequest) { requests.append(request) }
    func setBlinding(_ value: SyncFeedBlinding) { blinding = value }
}
