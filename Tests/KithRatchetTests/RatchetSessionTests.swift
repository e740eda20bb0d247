import KithCanonical
import KithRatchet
import Testing

@Suite struct RatchetSessionTests {
    @Test func conversationRoundTripsWithRatchetSteps() throws {
        var pair = try SessionPair()
        let first = try pair.aliceSends("hello bob")
        #expect(DirectMessageWire.isPrekeyMessage(first.wire))
        #expect(try pair.bobReceives(first) == first.plaintext)
        for round in 0..<5 {
            let fromBob = try pair.bobSends("bob \(round)")
            #expect(!DirectMessageWire.isPrekeyMessage(fromBob.wire))
            #expect(try pair.aliceReceives(fromBob) == fromBob.plaintext)
            #expect(!pair.aliceSession.isAwaitingReply)
            let a1 = try pair.aliceSends("alice \(round) a"), a2 = try pair.aliceSends("alice \(round) b")
            #expect(try pair.bobReceives(a1) == a1.plaintext)
            #expect(try pair.bobReceives(a2) == a2.plaintext)
        }
    }

    @Test func chainStartCarriesPQCiphertextOnlyOnFirstMessageByDefault() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let b1 = try pair.bobSends("one"), b2 = try pair.bobSends("two")
        let h1 = try DirectMessageWire.decode(b1.wire).wire.header
        let h2 = try DirectMessageWire.decode(b2.wire).wire.header
        #expect(h1.pqCiphertext?.count == 1088)
        #expect(h2.pqCiphertext == nil)
        // The second message alone cannot open the new chain; after the first, it can.
        #expect(throws: RatchetError.missingPQCiphertext) { try pair.aliceReceives(b2) }
        #expect(try pair.aliceReceives(b1) == b1.plaintext)
        #expect(try pair.aliceReceives(b2) == b2.plaintext)
    }

    @Test func everyMessagePolicyRepeatsPreludeAndCiphertext() throws {
        var pair = try SessionPair(configuration: RatchetConfiguration(pqCarryPolicy: .everyMessage))
        let a1 = try pair.aliceSends("first"), a2 = try pair.aliceSends("second")
        #expect(DirectMessageWire.isPrekeyMessage(a2.wire))
        // Bob can start from the second message when the first is lost.
        #expect(try pair.bobReceives(a2) == a2.plaintext)
        #expect(try pair.bobReceives(a1) == a1.plaintext)
    }

    @Test func outOfOrderMessagesUseSkippedKeys() throws {
        var pair = try SessionPair()
        let sent = try (0..<6).map { try pair.aliceSends("m\($0)") }
        try pair.bobReceives(sent[0])
        for index in [5, 2, 4, 1, 3] { #expect(try pair.bobReceives(sent[index]) == sent[index].plaintext) }
        #expect(pair.bobSession?.skippedKeys.count == 0)
    }

    @Test func failedDecryptionLeavesStateUnchanged() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let message = try pair.aliceSends("secret")
        var tampered = message.wire
        tampered[tampered.count - 1] ^= 0x01
        let before = try #require(pair.bobSession)
        #expect(throws: RatchetError.authenticationFailed) {
            _ = try before.decrypt(tampered, context: message.context, local: pair.bob.keys, now: Fixtures.now)
        }
        #expect(pair.bobSession == before)
        #expect(try pair.bobReceives(message) == message.plaintext)
    }

    @Test func replayedMessageIsRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let message = try pair.aliceSends("once")
        try pair.bobReceives(message)
        #expect(throws: RatchetError.duplicateOrExpiredMessage) { try pair.bobReceives(message) }
    }

    @Test func tamperedHeaderIsRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let message = try pair.aliceSends("x")
        var tampered = message.wire
        tampered[1 + 32 + 3] ^= 0x01   // message_number low byte (type byte, then 32-byte DH key)
        var wrong = message
        wrong.wire = tampered
        #expect(throws: RatchetError.self) { try pair.bobReceives(wrong) }
        #expect(try pair.bobReceives(message) == message.plaintext)
    }

    @Test func wrongAssociatedDataIsRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let message = try pair.aliceSends("bound to its envelope")
        let contexts = [
            try DirectMessageContext(feedID: message.context.feedID, sequence: message.context.sequence + 1, audience: message.context.audience),
            try DirectMessageContext(feedID: pair.bob.feedID, sequence: message.context.sequence, audience: message.context.audience),
            try DirectMessageContext(feedID: message.context.feedID, sequence: message.context.sequence, audience: "contacts"),
        ]
        for context in contexts {
            var moved = message
            moved.context = context
            #expect(throws: RatchetError.authenticationFailed) { try pair.bobReceives(moved) }
        }
        #expect(try pair.bobReceives(message) == message.plaintext)
    }

    @Test func truncatedPQCiphertextIsRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let fromBob = try pair.bobSends("starts a chain")
        // type 1 | dh 32 | n 4 | pn 4 | flag 1 | ct 1088 | ciphertext: cut inside the ML-KEM ciphertext.
        var truncated = fromBob
        truncated.wire = Array(fromBob.wire.prefix(1 + 32 + 8 + 1 + 500))
        #expect(throws: RatchetError.self) { try pair.aliceReceives(truncated) }
        #expect(try pair.aliceReceives(fromBob) == fromBob.plaintext)
    }

    @Test func invalidPQFlagAndTypeAreRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let message = try pair.aliceSends("x")
        var badFlag = message
        badFlag.wire[1 + 32 + 8] = 0x02
        #expect(throws: RatchetError.invalidPQFlag(0x02)) { try pair.bobReceives(badFlag) }
        var badType = message
        badType.wire[0] = 0x07
        #expect(throws: RatchetError.unknownMessageType(0x07)) { try pair.bobReceives(badType) }
    }

    @Test func maxSkipOverflowIsRejected() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        for _ in 0..<1001 { _ = try pair.aliceSends("dropped") }
        let far = try pair.aliceSends("too far")
        #expect(throws: RatchetError.tooManySkippedMessages(requested: 1001, limit: 1000)) { try pair.bobReceives(far) }
    }

    @Test func skipWithinLimitIsAccepted() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        for _ in 0..<999 { _ = try pair.aliceSends("dropped") }
        let edge = try pair.aliceSends("exactly at the limit")
        #expect(try pair.bobReceives(edge) == edge.plaintext)
        #expect(pair.bobSession?.skippedKeys.count == 999)
    }

    @Test func skippedKeysExpire() throws {
        var pair = try SessionPair(configuration: RatchetConfiguration(skippedKeyLifetime: 60))
        try pair.bobReceives(try pair.aliceSends("hi"))
        let late = try pair.aliceSends("late")
        let next = try pair.aliceSends("next")
        try pair.bobReceives(next, now: Fixtures.now)
        #expect(pair.bobSession?.skippedKeys.count == 1)
        #expect(throws: RatchetError.duplicateOrExpiredMessage) { try pair.bobReceives(late, now: Fixtures.now + 61) }
    }

    @Test func skippedKeyStoreEvictsOldestBeyondCap() throws {
        var pair = try SessionPair(configuration: RatchetConfiguration(pqCarryPolicy: .everyMessage))
        try pair.bobReceives(try pair.aliceSends("hi"))
        var firstChainStart: SessionPair.Sent?
        // Three chains of 800 skipped keys each: 2400 > 2000 stored, the oldest 400 are evicted.
        for chain in 0..<3 {
            var skipped: [SessionPair.Sent] = []
            for _ in 0..<800 { skipped.append(try pair.aliceSends("skipped")) }
            if chain == 0 { firstChainStart = skipped.first }
            try pair.bobReceives(try pair.aliceSends("arrives"))
            try pair.aliceReceives(try pair.bobSends("reply \(chain)"))
        }
        #expect(pair.bobSession?.skippedKeys.count == 2000)
        let evicted = try #require(firstChainStart)
        #expect(throws: RatchetError.duplicateOrExpiredMessage) { try pair.bobReceives(evicted) }
    }

    @Test func responderCannotSendBeforeReceiving() throws {
        let pair = try SessionPair()
        #expect(pair.aliceSession.canSend)
        #expect(pair.aliceSession.isAwaitingReply)
    }

    @Test func plaintextBoundIsEnforced() throws {
        let pair = try SessionPair()
        let context = try pair.alice.context(to: pair.bob, sequence: 1)
        let big = [UInt8](repeating: 0, count: RatchetConstants.maxPlaintextSize + 1)
        #expect(throws: RatchetError.plaintextTooLarge(big.count)) { _ = try pair.aliceSession.encrypt(big, context: context) }
    }
}
