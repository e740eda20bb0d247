import KithRatchet
import Testing

@Suite struct SessionCodecTests {
    @Test func roundTripsThroughEveryStage() throws {
        var pair = try SessionPair()
        #expect(try RatchetSession(serialized: pair.aliceSession.serialized) == pair.aliceSession)
        let first = try pair.aliceSends("hi")
        let skipped = try pair.aliceSends("skipped")
        let third = try pair.aliceSends("third")
        try pair.bobReceives(first)
        try pair.bobReceives(third)
        let bob = try #require(pair.bobSession)
        #expect(bob.skippedKeys.count == 1)
        let restored = try RatchetSession(serialized: bob.serialized)
        #expect(restored == bob)
        pair.bobSession = restored
        #expect(try pair.bobReceives(skipped) == skipped.plaintext)
        try pair.aliceReceives(try pair.bobSends("reply"))
        #expect(try RatchetSession(serialized: pair.aliceSession.serialized) == pair.aliceSession)
    }

    @Test func sessionStoreKeepsSerializedSessions() throws {
        let pair = try SessionPair()
        let store = InMemorySessionStore()
        let record = SessionRecord(current: pair.aliceSession)
        try store.saveSessionRecord(record, with: pair.bob.feed)
        #expect(try store.sessionRecord(with: pair.bob.feed) == record)
        #expect(try store.sessionRecord(with: pair.alice.feed) == nil)
        try store.deleteSessionRecord(with: pair.bob.feed)
        #expect(try store.sessionRecord(with: pair.bob.feed) == nil)
    }

    @Test func rejectsTruncationTrailingBytesAndUnknownVersion() throws {
        let bytes = try SessionPair().aliceSession.serialized
        for cut in [0, 1, 3, 50, 200, bytes.count - 1] {
            #expect(throws: RatchetError.self) { try RatchetSession(serialized: Array(bytes.prefix(cut))) }
        }
        #expect(throws: RatchetError.self) { try RatchetSession(serialized: bytes + [0]) }
        var future = bytes
        future[0] = 0x02
        #expect(throws: RatchetError.unsupportedSessionVersion(0x02)) { try RatchetSession(serialized: future) }
        var badRole = bytes
        badRole[1] = 0x09
        #expect(throws: RatchetError.self) { try RatchetSession(serialized: badRole) }
        #expect(throws: RatchetError.self) {
            try RatchetSession(serialized: [UInt8](repeating: 1, count: RatchetSessionCodec.maxEncodedSize + 1))
        }
    }
}
