import KithCanonical
import KithIdentity
import KithRatchet
import Testing

@Suite struct DirectMessageWireTests {
    static let header = RatchetHeader(
        dhPublicKey: [UInt8](repeating: 9, count: 32), messageNumber: 7, previousChainLength: 3,
        pqCiphertext: [UInt8](repeating: 5, count: 1088)
    )

    @Test func headerLayoutIsFlagBeforeCiphertext() {
        let bytes = Self.header.encoded
        #expect(bytes.count == 32 + 4 + 4 + 1 + 1088)
        #expect(Array(bytes[32..<41]) == [0, 0, 0, 7, 0, 0, 0, 3, 1])
        var plain = Self.header
        plain.pqCiphertext = nil
        #expect(plain.encoded.count == 41)
        #expect(plain.encoded.last == 0)
    }

    @Test func prekeyMessageRoundTrips() throws {
        let prelude = PrekeyPrelude(initiatorEphemeral: [UInt8](repeating: 4, count: 32), oneTimePrekeyID: 77, pqCiphertext: [UInt8](repeating: 6, count: 1088))
        let wire = DirectMessageWire(prelude: prelude, header: Self.header, ciphertext: [UInt8](repeating: 1, count: 20))
        let (decoded, headerBytes) = try DirectMessageWire.decode(wire.encoded)
        #expect(decoded == wire)
        #expect(headerBytes == wire.headerBytes)
        #expect(headerBytes.first == DirectMessageWire.prekeyMessageType)
        #expect(headerBytes.count == 1 + 32 + 5 + 1088 + 41 + 1088)
    }

    @Test func ciphertextShorterThanTagIsRejected() {
        let wire = DirectMessageWire(prelude: nil, header: Self.header, ciphertext: [UInt8](repeating: 1, count: 15))
        #expect(throws: RatchetError.self) { try DirectMessageWire.decode(wire.encoded) }
        #expect(throws: RatchetError.self) { try DirectMessageWire.decode([]) }
    }

    @Test func invalidOneTimePrekeyFlagIsRejected() {
        var bytes = [DirectMessageWire.prekeyMessageType] + [UInt8](repeating: 4, count: 32) + [0x07]
        bytes += [UInt8](repeating: 0, count: 1200)
        #expect(throws: RatchetError.self) { try DirectMessageWire.decode(bytes) }
    }

    @Test func associatedDataLayout() throws {
        let feedID = FeedID(ed25519PublicKey: [UInt8](repeating: 2, count: 32)).string
        let context = try DirectMessageContext(feedID: feedID, sequence: 258, audience: "direct:x")
        let ad = context.associatedData(headerBytes: [0xAA])
        #expect(ad.count == 1 + 43 + 8 + 2 + 8)
        #expect(Array(ad[44..<52]) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(Array(ad[52..<54]) == [0, 8])
        #expect(context.nonce.count == 12)
    }
}
