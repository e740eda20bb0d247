import KithRatchet
import Testing

@Suite struct PrekeyMessageTests {
    @Test func unknownOneTimePrekeyIsRejected() throws {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let prekeys = InMemoryPrekeyStore()
        let forged = OneTimePrekeyPublic(id: 4242, publicKey: Array(bob.keys.dhKey.publicKey.rawRepresentation))
        let session = try RatchetSession.initiate(local: alice.keys, bundle: try bob.bundle(oneTimePrekey: forged))
        let context = try alice.context(to: bob, sequence: 1)
        let (wire, _) = try session.encrypt(Array("hi".utf8), context: context)
        #expect(throws: RatchetError.unknownOneTimePrekey(id: 4242)) {
            _ = try RatchetSession.respond(local: bob.keys, peer: try alice.peer, prekeys: prekeys, wire: wire, context: context, now: Fixtures.now)
        }
    }

    @Test func reusedOneTimePrekeyIsRejected() throws {
        var pair = try SessionPair()
        let first = try pair.aliceSends("hi")
        try pair.bobReceives(first)
        #expect(throws: RatchetError.unknownOneTimePrekey(id: 1)) {
            _ = try RatchetSession.respond(
                local: pair.bob.keys, peer: try pair.alice.peer, prekeys: pair.prekeys,
                wire: first.wire, context: first.context, now: Fixtures.now
            )
        }
    }

    @Test func forgedPrekeyMessageDoesNotBurnTheOneTimePrekey() throws {
        var pair = try SessionPair()
        let first = try pair.aliceSends("hi")
        var forged = first
        forged.wire[forged.wire.count - 1] ^= 0xFF
        #expect(throws: RatchetError.authenticationFailed) { try pair.bobReceives(forged) }
        #expect(try pair.prekeys.status(forPeer: pair.alice.feed).remaining == 10)
        #expect(try pair.bobReceives(first) == first.plaintext)
        #expect(try pair.prekeys.status(forPeer: pair.alice.feed).remaining == 9)
    }

    @Test func sessionWithoutOneTimePrekeyWorks() throws {
        var pair = try SessionPair(useOneTimePrekey: false)
        let first = try pair.aliceSends("no opk")
        let prelude = try #require(try DirectMessageWire.decode(first.wire).wire.prelude)
        #expect(prelude.oneTimePrekeyID == nil)
        #expect(try pair.bobReceives(first) == first.plaintext)
    }

    @Test func prekeyMessageOfAnotherSessionIsRefused() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let other = try RatchetSession.initiate(local: pair.alice.keys, bundle: try pair.bob.bundle())
        let context = try pair.alice.context(to: pair.bob, sequence: 99)
        let (wire, _) = try other.encrypt(Array("restart".utf8), context: context)
        let bobSession = try #require(pair.bobSession)
        #expect(throws: RatchetError.prekeyMessageForOtherSession) {
            _ = try bobSession.decrypt(wire, context: context, local: pair.bob.keys, now: Fixtures.now)
        }
    }

    @Test func lowOrderEphemeralIsRejected() throws {
        var pair = try SessionPair()
        var message = try pair.aliceSends("hi")
        for index in 1...32 { message.wire[index] = 0 }
        #expect(throws: RatchetError.lowOrderPoint) { try pair.bobReceives(message) }
    }
}
