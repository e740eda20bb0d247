import KithCanonical
import KithSync
import KithTestSupport
import Testing

@Suite("Record framing inside sealed frames")
struct SyncFrameTests {
    @Test("kind bytes and lengths are byte-exact")
    func recordBytes() throws {
        let request = SyncRequest(feedTag: try Fixtures.feedTag(0), haveSequence: 7)
        #expect(try SyncFrame.request(request).encoded() == [0x01] + request.encoded)
        let offer = SyncOffer(feedTag: try Fixtures.feedTag(0), haveSequence: 7, messageCount: 2)
        #expect(try SyncFrame.offer(offer).encoded() == [0x02] + offer.encoded)
        let chunk = SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 0, totalChunks: 1, data: [9, 9, 9])
        #expect(try SyncFrame.chunk(chunk).encoded() == [0x03, 0x00, 39] + chunk.encoded)
        let ack = SyncAck(messageID: try Fixtures.messageID(1), status: .ok)
        #expect(try SyncFrame.ack(ack).encoded() == [0x04] + ack.encoded)
        #expect(try SyncFrame.done.encoded() == [0x05])
    }

    @Test("several records decode from one plaintext, padding ends it")
    func decodeAll() throws {
        let frames: [SyncFrame] = [
            .request(SyncRequest(feedTag: try Fixtures.feedTag(3), haveSequence: 1)),
            .chunk(SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 1, totalChunks: 2, data: [1, 2])),
            .ack(SyncAck(messageID: try Fixtures.messageID(2), status: .invalid)),
            .done,
        ]
        var plaintext: [UInt8] = []
        for frame in frames { plaintext += try frame.encoded() }
        #expect(try SyncFrame.decodeAll(plaintext) == frames)
        #expect(try SyncFrame.decodeAll(plaintext + [0x00, 0, 0, 0]) == frames)
    }

    @Test("a side chunk (0x0B) round-trips like a blob chunk")
    func sideChunk() throws {
        let chunk = SyncChunk(messageID: try Fixtures.messageID(2), chunkIndex: 0, totalChunks: 1, data: [1, 2, 3])
        let encoded = try SyncFrame.sideChunk(chunk).encoded()
        #expect(encoded.first == 0x0B)
        #expect(try SyncFrame.decodeAll(encoded) == [.sideChunk(chunk)])
    }

    @Test("unknown kinds, non-zero padding and bad chunk lengths are rejected")
    func rejections() throws {
        #expect(throws: SyncWireError.unknownRecordKind(0x0C)) { try SyncFrame.decodeAll([0x0C]) }
        #expect(throws: SyncWireError.nonZeroPadding) { try SyncFrame.decodeAll([0x00, 0, 1]) }
        #expect(throws: SyncWireError.self) { try SyncFrame.decodeAll([0x03, 0x00, 0x40] + Fixtures.bytes32(0)) }
        #expect(throws: SyncWireError.self) { try SyncFrame.decodeAll([0x01] + Fixtures.bytes32(0)) }
        let empty = SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 0, totalChunks: 1, data: [])
        #expect(throws: SyncWireError.emptyChunkData) { try SyncFrame.chunk(empty).encoded() }
        let outOfRange = SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 1, totalChunks: 1, data: [1])
        #expect(throws: SyncWireError.chunkIndexOutOfRange(index: 1, total: 1)) { try SyncFrame.chunk(outOfRange).encoded() }
    }

    @Test("Hello is version | capabilities, negotiates the minimum and the intersection")
    func hello() throws {
        let hello = SyncHello(version: 1, capabilities: .zstdEnvelopes)
        #expect(hello.encoded == [0x01, 0x00, 0x01])
        #expect(try SyncHello(decoding: [0x01, 0x00, 0x01, 0xFF]) == hello)
        #expect(throws: SyncWireError.unsupportedVersion(0)) { try SyncHello(decoding: [0x00, 0x00, 0x00]) }
        #expect(throws: SyncWireError.self) { try SyncHello(decoding: [0x01, 0x00]) }
        let negotiated = SyncHello(version: 3, capabilities: SyncCapabilities(rawValue: 0x8001))
            .negotiated(with: SyncHello(version: 1, capabilities: []))
        #expect(negotiated == SyncHello(version: 1, capabilities: []))
    }
}
