import Crypto
import KithSync
import KithTDF
import Testing
@testable import KithRendezvous

/// The relay's client framing: link frames behind kind 0x01, NanoTDF by its magic, nothing else.
@Suite struct RelayMessageTests {
    @Test func linkFramesThatStartWithTheMagicAreNeverTakenForNanoTDF() throws {
        // Noise ciphertext is random: some frames begin with 4C 31 4C by chance.
        let frames: [[UInt8]] = [[0x4C, 0x31, 0x4C], [0x4C, 0x31, 0x4C] + [UInt8](repeating: 9, count: 506), [0x4C, 0x31, 0x4D, 1], [0x01], [0x4C]]
        for frame in frames {
            let encoded = RelayMessage.linkFrame(frame).encoded
            #expect(encoded.first == RelayMessage.linkFrameKind)
            #expect(try RelayMessage(decoding: encoded) == .linkFrame(frame))
        }
        for _ in 0..<256 {
            let frame = (0..<Int.random(in: 1...SyncLimits.maximumMTU)).map { _ in UInt8.random(in: 0...255) }
            #expect(try RelayMessage(decoding: RelayMessage.linkFrame(frame).encoded) == .linkFrame(frame))
        }
    }

    @Test func aNanoTDFIsRecognisedByItsMagicAndParses() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let kas = try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example")
        let nano = try NanoTDF.encrypt(Array("hi".utf8), to: .p256(recipient.publicKey), configuration: .init(kas: kas, policy: .plaintext([1])))
        let encoded = RelayMessage.nanoTDF(nano.serialized).encoded
        #expect(Array(encoded.prefix(3)) == [0x4C, 0x31, 0x4C])
        guard case .nanoTDF(let bytes) = try RelayMessage(decoding: encoded) else { Issue.record("not routed to NanoTDF"); return }
        #expect(try NanoTDF(parsing: bytes).decrypt(using: .p256(recipient)) == Array("hi".utf8))
    }

    @Test func everythingElseIsRefused() throws {
        #expect(throws: SyncTransportError.invalidFrameLength(0, mtu: SyncLimits.maximumMTU)) { try RelayMessage(decoding: []) }
        #expect(throws: SyncTransportError.invalidFrameLength(0, mtu: SyncLimits.maximumMTU)) { try RelayMessage(decoding: [0x01]) }
        #expect(throws: SyncTransportError.invalidFrameLength(510, mtu: SyncLimits.maximumMTU)) {
            try RelayMessage(decoding: [0x01] + [UInt8](repeating: 0, count: 510))
        }
        #expect(throws: SyncTransportError.unknownFrameKind(0x00)) { try RelayMessage(decoding: [0x00, 1, 2]) }
        #expect(throws: SyncTransportError.unknownFrameKind(0x02)) { try RelayMessage(decoding: [0x02, 1, 2]) }
        // 0x4C without a whole NanoTDF magic (L1L or L1M).
        #expect(throws: SyncTransportError.unknownFrameKind(0x4C)) { try RelayMessage(decoding: [0x4C, 0x31]) }
        #expect(throws: SyncTransportError.unknownFrameKind(0x4C)) { try RelayMessage(decoding: [0x4C, 0x31, 0x4E, 0]) }
        #expect(throws: SyncTransportError.unknownFrameKind(0x4C)) { try RelayMessage(decoding: [0x4C, 0x00, 0x4C, 0]) }
        #expect(throws: SyncTransportError.invalidFrameLength(65_537, mtu: 65_536)) {
            try RelayMessage(decoding: [0x4C, 0x31, 0x4C] + [UInt8](repeating: 0, count: 65_534))
        }
    }
}
