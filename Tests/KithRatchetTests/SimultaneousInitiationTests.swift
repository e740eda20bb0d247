import KithIdentity
import KithRatchet
import Testing

@Suite struct SimultaneousInitiationTests {
    /// Both sides initiate at once; the session initiated by the lower feed_id wins and both converge.
    @Test func bothSidesConvergeOnTheLowerFeedIDsSession() throws {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let alicePrekeys = InMemoryPrekeyStore(), bobPrekeys = InMemoryPrekeyStore()
        var aliceBatch = try bobPrekeys.generateOneTimePrekeys(count: 5, forPeer: alice.feed)
        var bobBatch = try alicePrekeys.generateOneTimePrekeys(count: 5, forPeer: bob.feed)

        var aliceSession = try RatchetSession.initiate(local: alice.keys, bundle: try bob.bundle(oneTimePrekey: aliceBatch.takeFirst()))
        var bobSession = try RatchetSession.initiate(local: bob.keys, bundle: try alice.bundle(oneTimePrekey: bobBatch.takeFirst()))
        let aliceContext = try alice.context(to: bob, sequence: 1), bobContext = try bob.context(to: alice, sequence: 1)
        let fromAlice = try aliceSession.encrypt(Array("alice first".utf8), context: aliceContext)
        let fromBob = try bobSession.encrypt(Array("bob first".utf8), context: bobContext)
        aliceSession = fromAlice.session
        bobSession = fromBob.session

        // Exactly one side yields.
        #expect(aliceSession.yieldsToIncomingInitiation != bobSession.yieldsToIncomingInitiation)
        let aliceIsLower = (alice.feed < bob.feed)
        #expect(aliceSession.yieldsToIncomingInitiation == !aliceIsLower)

        // Each side receives the other's prekey message, which its own session refuses.
        #expect(throws: RatchetError.prekeyMessageForOtherSession) {
            _ = try aliceSession.decrypt(fromBob.wire, context: bobContext, local: alice.keys, now: Fixtures.now)
        }
        func receive(_ local: TestParty, _ peer: TestParty, _ prekeys: InMemoryPrekeyStore, _ own: RatchetSession,
                     _ wire: [UInt8], _ context: DirectMessageContext) throws -> (RatchetSession, [UInt8]) {
            let (incoming, plaintext) = try RatchetSession.respond(
                local: local.keys, peer: try peer.peer, prekeys: prekeys, wire: wire, context: context, now: Fixtures.now
            )
            // The loser adopts the winner's session; the winner only reads the message.
            return (own.yieldsToIncomingInitiation ? incoming : own, plaintext)
        }
        let (aliceFinal, aliceRead) = try receive(alice, bob, alicePrekeys, aliceSession, fromBob.wire, bobContext)
        let (bobFinal, bobRead) = try receive(bob, alice, bobPrekeys, bobSession, fromAlice.wire, aliceContext)
        #expect(aliceRead == Array("bob first".utf8))
        #expect(bobRead == Array("alice first".utf8))
        #expect(aliceFinal.baseKey == bobFinal.baseKey)

        // Converged: messages flow both ways on the surviving session.
        var (winner, loser) = aliceIsLower ? (aliceFinal, bobFinal) : (bobFinal, aliceFinal)
        let (winnerParty, loserParty) = aliceIsLower ? (alice, bob) : (bob, alice)
        let reply = try loser.encrypt(Array("on your session".utf8), context: try loserParty.context(to: winnerParty, sequence: 2))
        loser = reply.session
        let opened = try winner.decrypt(reply.wire, context: try loserParty.context(to: winnerParty, sequence: 2), local: winnerParty.keys, now: Fixtures.now)
        winner = opened.session
        #expect(opened.plaintext == Array("on your session".utf8))
        #expect(!winner.isAwaitingReply)
        let back = try winner.encrypt(Array("agreed".utf8), context: try winnerParty.context(to: loserParty, sequence: 2))
        let final = try loser.decrypt(back.wire, context: try winnerParty.context(to: loserParty, sequence: 2), local: loserParty.keys, now: Fixtures.now)
        #expect(final.plaintext == Array("agreed".utf8))
    }
}
