import KithRatchet
import Testing

/// ``DirectSessions`` over the in-memory stores: what the facade does over SQLite.
@Suite struct DirectSessionsTests {
    /// One side of a conversation: its session layer and its stores.
    struct Side {
        let party: TestParty
        let layer: DirectSessions
        let sessions = InMemorySessionStore()
        let prekeys = InMemoryPrekeyStore()
        let peerPrekeys = InMemoryPeerPrekeyStore()
        var sequence: UInt64 = 0

        init(_ party: TestParty) throws {
            self.party = party
            layer = try DirectSessions(local: party.keys)
        }

        mutating func send(_ text: String, to other: Side) throws -> (wire: [UInt8], context: DirectMessageContext) {
            sequence += 1
            let context = try party.context(to: other.party, sequence: sequence)
            let wire = try layer.encrypt(
                Array(text.utf8), to: try other.party.peer, signedPrekey: other.party.signedPrekeyPublic, context: context,
                sessions: sessions, peerPrekeys: peerPrekeys
            )
            return (wire, context)
        }

        func open(_ message: (wire: [UInt8], context: DirectMessageContext), from other: Side) throws -> String {
            let plaintext = try layer.open(
                message.wire, context: message.context, from: try other.party.peer, sessions: sessions, prekeys: prekeys, now: Fixtures.now
            )
            return String(decoding: plaintext, as: UTF8.self)
        }
    }

    /// Alice holds a batch of 10 of Bob's one-time prekeys.
    static func pair() throws -> (alice: Side, bob: Side) {
        let alice = try Side(Fixtures.alice()), bob = try Side(Fixtures.bob())
        let batch = try bob.prekeys.generateOneTimePrekeys(count: 10, forPeer: alice.party.feed)
        try DirectSessions.acceptPrekeyBatch(batch.encoded, from: bob.party.feed, peerPrekeys: alice.peerPrekeys)
        return (alice, bob)
    }

    @Test func sendAndReceiveBothWays() throws {
        var (alice, bob) = try Self.pair()
        let first = try alice.send("hi bob", to: bob)
        #expect(DirectMessageWire.isPrekeyMessage(first.wire))
        #expect(try alice.peerPrekeys.peerPrekeyCount(forPeer: bob.party.feed) == 9)
        #expect(try bob.open(first, from: alice) == "hi bob")
        #expect(try bob.prekeys.status(forPeer: alice.party.feed).remaining == 9)
        #expect(try bob.sessions.sessionRecord(with: alice.party.feed) != nil)

        let reply = try bob.send("hi alice", to: alice)
        #expect(!DirectMessageWire.isPrekeyMessage(reply.wire))
        #expect(try alice.open(reply, from: bob) == "hi alice")
        let next = try alice.send("after the reply", to: bob)
        #expect(!DirectMessageWire.isPrekeyMessage(next.wire))
        #expect(try bob.open(next, from: alice) == "after the reply")
        #expect(try alice.peerPrekeys.peerPrekeyCount(forPeer: bob.party.feed) == 9)
    }

    @Test func oneTimePrekeyIsConsumedOnce() throws {
        var (alice, bob) = try Self.pair()
        let first = try alice.send("one", to: bob)
        let second = try alice.send("two", to: bob)  // same session, same prekey, still awaiting a reply
        #expect(try bob.open(first, from: alice) == "one")
        #expect(try bob.open(second, from: alice) == "two")
        #expect(try bob.prekeys.status(forPeer: alice.party.feed).remaining == 9)

        // A new initiation quoting the consumed prekey (id 1) is refused and changes nothing.
        var restarted = try Side(alice.party)
        let batch = try OneTimePrekeyBatch(entries: [try #require(try bob.prekeys.generateOneTimePrekeys(count: 1, forPeer: Fixtures.peer).entries.first).withID(1)])
        try restarted.peerPrekeys.addPeerPrekeys(batch, forPeer: bob.party.feed)
        restarted.sequence = alice.sequence
        let again = try restarted.send("three", to: bob)
        let before = try bob.sessions.sessionRecord(with: alice.party.feed)
        #expect(throws: RatchetError.unknownOneTimePrekey(id: 1)) { try bob.open(again, from: alice) }
        #expect(try bob.sessions.sessionRecord(with: alice.party.feed) == before)
        #expect(try bob.prekeys.status(forPeer: alice.party.feed).remaining == 9)
    }

    @Test func replayIsRefusedAndLeavesTheRecord() throws {
        var (alice, bob) = try Self.pair()
        let first = try alice.send("once", to: bob)
        #expect(try bob.open(first, from: alice) == "once")
        let reply = try bob.send("ack", to: alice)
        #expect(try alice.open(reply, from: bob) == "ack")
        let second = try alice.send("twice?", to: bob)
        #expect(try bob.open(second, from: alice) == "twice?")

        let before = try bob.sessions.sessionRecord(with: alice.party.feed)
        #expect(throws: RatchetError.self) { try bob.open(second, from: alice) }
        #expect(throws: RatchetError.self) { try bob.open(first, from: alice) }
        #expect(try bob.sessions.sessionRecord(with: alice.party.feed) == before)
        #expect(try bob.prekeys.status(forPeer: alice.party.feed).remaining == 9)
    }

    @Test func unknownOneTimePrekeyIsRefused() throws {
        var alice = try Side(Fixtures.alice())
        let bob = try Side(Fixtures.bob())
        let forged = try OneTimePrekeyBatch(entries: [OneTimePrekeyPublic(id: 4242, publicKey: bob.party.signedPrekeyPublic)])
        try alice.peerPrekeys.addPeerPrekeys(forged, forPeer: bob.party.feed)
        let message = try alice.send("hi", to: bob)
        #expect(try alice.peerPrekeys.peerPrekeyCount(forPeer: bob.party.feed) == 0)
        #expect(throws: RatchetError.unknownOneTimePrekey(id: 4242)) { try bob.open(message, from: alice) }
        #expect(try bob.sessions.sessionRecord(with: alice.party.feed) == nil)
    }

    @Test func withoutSessionOnlyPrekeyMessagesOpen() throws {
        var (alice, bob) = try Self.pair()
        _ = try bob.open(try alice.send("hi", to: bob), from: alice)
        _ = try alice.open(try bob.send("hello", to: alice), from: bob)
        let plain = try alice.send("plain message", to: bob)
        let stranger = try Side(bob.party)  // Bob's keys, no stored session
        #expect(throws: RatchetError.self) { try stranger.open(plain, from: alice) }
        #expect(try stranger.sessions.sessionRecord(with: alice.party.feed) == nil)
    }

    @Test func contextMustMatchTheParties() throws {
        var (alice, bob) = try Self.pair()
        let message = try alice.send("hi", to: bob)
        let carol = try Side(TestParty(name: "carol"))
        #expect(throws: RatchetError.self) { try carol.open(message, from: alice) }
        let misdirected = try alice.party.context(to: carol.party, sequence: 9)
        #expect(throws: RatchetError.self) {
            try alice.layer.encrypt(
                [1], to: try bob.party.peer, signedPrekey: bob.party.signedPrekeyPublic, context: misdirected,
                sessions: alice.sessions, peerPrekeys: alice.peerPrekeys
            )
        }
    }

    @Test func previousKeysMustBeOfTheSameFeed() throws {
        #expect(throws: RatchetError.self) { try DirectSessions(local: try Fixtures.alice().keys, previous: try Fixtures.bob().keys) }
    }
}

private extension OneTimePrekeyPublic {
    func withID(_ id: UInt32) -> OneTimePrekeyPublic { OneTimePrekeyPublic(id: id, publicKey: publicKey) }
}
