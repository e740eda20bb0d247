import KithCanonical
import KithSync
import KithTestSupport
import PropertyBased
import Testing

@Suite("Spec 8.3 wire structures")
struct WireStructureTests {
    let feedHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    let messageHex = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"

    @Test("SyncRequest is 36 bytes: feed_id | have_seq big-endian")
    func requestBytes() throws {
        let request = SyncRequest(feedTag: try Fixtures.feedTag(0), haveSequence: 0x0102_0304)
        #expect(request.encoded.count == 36)
        #expect(TestPaths.hexString(request.encoded) == feedHex + "01020304")
        #expect(try SyncRequest(decoding: request.encoded) == request)
    }

    @Test("have_seq 0xFFFFFFFF means the whole feed")
    func requestHaveNothing() throws {
        let request = SyncRequest(feedTag: try Fixtures.feedTag(0), haveSequence: SyncLimits.haveNothing)
        #expect(request.wantsEntireFeed)
        #expect(TestPaths.hexString(request.encoded) == feedHex + "ffffffff")
        #expect(!SyncRequest(feedTag: try Fixtures.feedTag(0), haveSequence: 0).wantsEntireFeed)
    }

    @Test("SyncOffer is 40 bytes: feed_id | have_seq | message_count")
    func offerBytes() throws {
        let offer = SyncOffer(feedTag: try Fixtures.feedTag(0), haveSequence: 41, messageCount: 0x0A0B)
        #expect(offer.encoded.count == 40)
        #expect(TestPaths.hexString(offer.encoded) == feedHex + "00000029" + "00000a0b")
        #expect(try SyncOffer(decoding: offer.encoded) == offer)
    }

    @Test("SyncChunk is message_id | chunk_index | total_chunks | data")
    func chunkBytes() throws {
        let chunk = SyncChunk(messageID: try Fixtures.messageID(0x20), chunkIndex: 2, totalChunks: 0x0103, data: [0xAA, 0xBB])
        #expect(chunk.encoded.count == 38)
        #expect(TestPaths.hexString(chunk.encoded) == messageHex + "0002" + "0103" + "aabb")
        #expect(try SyncChunk(decoding: chunk.encoded) == chunk)
    }

    @Test("SyncAck is 33 bytes: message_id | status")
    func ackBytes() throws {
        let ok = SyncAck(messageID: try Fixtures.messageID(0x20), status: .ok)
        let invalid = SyncAck(messageID: try Fixtures.messageID(0x20), status: .invalid)
        #expect(TestPaths.hexString(ok.encoded) == messageHex + "00")
        #expect(TestPaths.hexString(invalid.encoded) == messageHex + "01")
        #expect(try SyncAck(decoding: invalid.encoded) == invalid)
    }

    @Test("ids must be 32 bytes")
    func idLength() {
        #expect(throws: SyncWireError.invalidIDLength(31)) { try SyncFeedTag(bytes: [UInt8](repeating: 0, count: 31)) }
        #expect(throws: SyncWireError.invalidIDLength(33)) { try SyncMessageID(bytes: [UInt8](repeating: 0, count: 33)) }
    }

    @Test("fixed-size structures reject truncation and trailing bytes")
    func fixedSizeRejections() throws {
        let request = SyncRequest(feedTag: try Fixtures.feedTag(0), haveSequence: 1).encoded
        #expect(throws: SyncWireError.malformed(.truncated(needed: 4, available: 3, offset: 32))) {
            try SyncRequest(decoding: Array(request.dropLast()))
        }
        #expect(throws: SyncWireError.malformed(.trailingBytes(count: 1, offset: 36))) {
            try SyncRequest(decoding: request + [0])
        }
        let offer = SyncOffer(feedTag: try Fixtures.feedTag(0), haveSequence: 1, messageCount: 1).encoded
        #expect(throws: SyncWireError.self) { try SyncOffer(decoding: Array(offer.prefix(39))) }
        #expect(throws: SyncWireError.self) { try SyncOffer(decoding: offer + [0]) }
        let ack = SyncAck(messageID: try Fixtures.messageID(0), status: .ok).encoded
        #expect(throws: SyncWireError.self) { try SyncAck(decoding: Array(ack.prefix(32))) }
        #expect(throws: SyncWireError.self) { try SyncAck(decoding: ack + [0]) }
    }

    @Test("SyncAck status other than 0x00/0x01 is rejected")
    func ackStatus() throws {
        let bytes = Fixtures.bytes32(0) + [0x02]
        #expect(throws: SyncWireError.invalidAckStatus(0x02)) { try SyncAck(decoding: bytes) }
    }

    @Test("SyncChunk structural rejections")
    func chunkRejections() throws {
        let id = Fixtures.bytes32(0)
        #expect(throws: SyncWireError.emptyChunkData) { try SyncChunk(decoding: id + [0, 0, 0, 1]) }
        #expect(throws: SyncWireError.self) { try SyncChunk(decoding: id + [0, 0, 0]) }
        #expect(throws: SyncWireError.zeroTotalChunks) { try SyncChunk(decoding: id + [0, 0, 0, 0, 0xAA]) }
        #expect(throws: SyncWireError.chunkIndexOutOfRange(index: 3, total: 3)) {
            try SyncChunk(decoding: id + [0, 3, 0, 3, 0xAA])
        }
    }

    @Test("structures round-trip for any values")
    func roundTripProperty() async {
        await propertyCheck(input: Gen.uint32(), Gen.uint32(), Gen.uint8()) { have, count, start in
            let feed = try Fixtures.feedTag(start)
            let request = SyncRequest(feedTag: feed, haveSequence: have)
            #expect(try SyncRequest(decoding: request.encoded) == request)
            let offer = SyncOffer(feedTag: feed, haveSequence: have, messageCount: count)
            #expect(try SyncOffer(decoding: offer.encoded) == offer)
        }
    }
}
