import KithRatchet
import PropertyBased
import Testing

/// The bounded decoders never trap: arbitrary or mutated input either decodes or throws a RatchetError.
@Suite struct DecoderRobustnessPropertyTests {
    @Test func arbitraryBytesNeverTrap() async {
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...1300)) { bytes in
            _ = try? DirectMessageWire.decode(bytes)
            _ = try? OneTimePrekeyBatch.decode(bytes)
            _ = try? RatchetSession(serialized: bytes)
            _ = try? SignedPrekey.decode(bytes, identityKey: [UInt8](repeating: 0, count: 32))
            if bytes.count >= 32 { _ = try? EdwardsToMontgomery.publicKey(fromEd25519: Array(bytes.prefix(32))) }
        }
    }

    @Test func mutatedSessionsAndMessagesNeverTrap() async throws {
        var pair = try SessionPair()
        let first = try pair.aliceSends("hello")
        try pair.bobReceives(first)
        let message = try pair.aliceSends("mutate me")
        let session = pair.aliceSession.serialized
        let bobSession = try #require(pair.bobSession)
        let bobKeys = pair.bob.keys
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max), Gen.uint8()) { position, value in
            var mutated = session
            mutated[position % mutated.count] ^= value | 1
            _ = try? RatchetSession(serialized: mutated)
            var wire = message.wire
            wire[position % wire.count] ^= value | 1
            #expect(throws: RatchetError.self) {
                _ = try bobSession.decrypt(wire, context: message.context, local: bobKeys, now: Fixtures.now)
            }
        }
    }
}
