import Crypto
import KithRatchet
import Testing

/// Rejection rules that need unusual states (crafted through the session codec) or inputs.
@Suite struct SessionEdgeCaseTests {
    // Offsets in a fresh initiator session (docs/ratchet.md section 7): version, role, presence,
    // two feed_ids, root key, sending ratchet private, receiving ratchet public, sending chain key.
    static let sendingChainOffset = 3 + 86 + 32 + 32 + 32
    static let sendingNumberOffset = sendingChainOffset + 32

    @Test func sessionWithoutSendingChainCannotEncrypt() throws {
        let pair = try SessionPair()
        var bytes = pair.aliceSession.serialized
        bytes[2] &= ~0x02
        bytes.removeSubrange(Self.sendingChainOffset..<(Self.sendingChainOffset + 32))
        let session = try RatchetSession(serialized: bytes)
        #expect(!session.canSend)
        #expect(throws: RatchetError.noSendingChain) {
            _ = try session.encrypt([1], context: try pair.alice.context(to: pair.bob, sequence: 1))
        }
    }

    @Test func exhaustedChainCounterIsRefused() throws {
        let pair = try SessionPair()
        var bytes = pair.aliceSession.serialized
        bytes.replaceSubrange(Self.sendingNumberOffset..<(Self.sendingNumberOffset + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let session = try RatchetSession(serialized: bytes)
        #expect(session.sendingMessageNumber == UInt32.max)
        #expect(throws: RatchetError.chainExhausted) {
            _ = try session.encrypt([1], context: try pair.alice.context(to: pair.bob, sequence: 1))
        }
    }

    @Test func previousChainSkipBeyondMaxSkipIsRefused() throws {
        var pair = try SessionPair()
        let first = try pair.aliceSends("m0")
        for _ in 0..<1001 { _ = try pair.aliceSends("lost") }
        try pair.bobReceives(first)
        try pair.aliceReceives(try pair.bobSends("reply"))
        let onNewChain = try pair.aliceSends("new chain")
        #expect(throws: RatchetError.tooManySkippedMessages(requested: 1001, limit: 1000)) { try pair.bobReceives(onNewChain) }
    }

    @Test func invalidPQPublicKeyIsRejected() throws {
        let alice = try Fixtures.alice()
        let identity = Array(alice.keys.identityKey.publicKey.rawRepresentation)
        #expect(throws: RatchetError.invalidPQKey) { try PeerIdentity(identityKey: identity, pqKey: [UInt8](repeating: 0xFF, count: 1184)) }
        #expect(throws: RatchetError.invalidKeyLength(expected: 1184, actual: 10)) { try PeerIdentity(identityKey: identity, pqKey: [UInt8](repeating: 0, count: 10)) }
    }

    @Test func responderReadsPrekeyMessageStartingMidChain() throws {
        // everyMessage: Bob's first arrival is message 2 of Alice's initial chain.
        var pair = try SessionPair(configuration: RatchetConfiguration(pqCarryPolicy: .everyMessage))
        let sent = try (0..<3).map { try pair.aliceSends("m\($0)") }
        #expect(try pair.bobReceives(sent[2]) == sent[2].plaintext)
        #expect(pair.bobSession?.skippedKeys.count == 2)
        #expect(try pair.bobReceives(sent[0]) == sent[0].plaintext)
        #expect(try pair.bobReceives(sent[1]) == sent[1].plaintext)
        #expect(throws: RatchetError.duplicateOrExpiredMessage) { try pair.bobReceives(sent[1]) }
    }

    @Test func responderStateNeverHoldsLongTermPrivateKeys() throws {
        var pair = try SessionPair()
        try pair.bobReceives(try pair.aliceSends("hi"))
        let stored = try #require(pair.bobSession).serialized
        for secret in [pair.bob.dhPrivate, Array(pair.bob.keys.identityDHKey.rawRepresentation), pair.bob.pqSeed] {
            let window = secret.count
            let found = stored.count >= window && (0...(stored.count - window)).contains { Array(stored[$0..<($0 + window)]) == secret }
            #expect(!found)
        }
    }

    @Test func insertingADuplicatePrekeyIDIsRejected() throws {
        let store = InMemoryPrekeyStore()
        let key = Curve25519.KeyAgreement.PrivateKey()
        try store.insert(id: 5, privateKey: key, forPeer: Fixtures.peer)
        #expect(throws: RatchetError.self) { try store.insert(id: 5, privateKey: key, forPeer: Fixtures.peer) }
        #expect(try store.status(forPeer: Fixtures.peer).remaining == 1)
    }
}
