import KithCanonical
import KithSync
import Testing

@Suite("Held ranges and blob records (0x06-0x0A)")
struct SyncHeldRangesTests {
    @Test("a held-ranges record is byte-exact")
    func byteExact() throws {
        let held = SyncHeldRanges(feedTag: try Fixtures.feedTag(0), ranges: [5...7, 0x0102_0304...0x0102_0304])
        let expected = Fixtures.bytes32(0) + [0x02] + [0, 0, 0, 5, 0, 0, 0, 7] + [1, 2, 3, 4, 1, 2, 3, 4]
        #expect(try held.encoded() == expected)
        #expect(try SyncFrame.held(held).encoded() == [0x06] + expected)
        #expect(try SyncHeldRanges(decoding: expected) == held)
        #expect(held.encodedLength == 49)
    }

    @Test("blob records are byte-exact")
    func blobRecords() throws {
        let id = try SyncBlobID(bytes: Fixtures.bytes32(0x40))
        let want = SyncBlobWant(blobID: id, maximumBytes: 0x0001_0000)
        #expect(want.encoded == Fixtures.bytes32(0x40) + [0, 1, 0, 0])
        #expect(try SyncFrame.blobWant(want).encoded() == [0x07] + want.encoded)
        #expect(try SyncFrame.blobMissing(id).encoded() == [0x09] + Fixtures.bytes32(0x40))
        #expect(try SyncFrame.blobsDone.encoded() == [0x0A])
        let chunk = SyncChunk(messageID: try Fixtures.messageID(0x40), chunkIndex: 0, totalChunks: 1, data: [0xAA, 0xBB])
        #expect(try SyncFrame.blobChunk(chunk).encoded() == [0x08, 0x00, 38] + chunk.encoded)
        let frames: [SyncFrame] = [.blobWant(want), .blobChunk(chunk), .blobMissing(id), .blobsDone,
                                   .held(SyncHeldRanges(feedTag: try Fixtures.feedTag(1), ranges: [3...3]))]
        let plaintext = try frames.flatMap { try $0.encoded() }
        #expect(try SyncFrame.decodeAll(plaintext) == frames)
    }

    @Test("held ranges that break the rules are rejected", arguments: [
        ("no ranges", [0x00] as [UInt8]),
        ("first above last", [0x01, 0, 0, 0, 9, 0, 0, 0, 8]),
        ("overlapping", [0x02, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 6]),
        ("adjacent", [0x02, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7]),
        ("descending", [0x02, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 1]),
        ("reserved sequence", [0x01, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF]),
    ])
    func rejections(_ name: String, _ body: [UInt8]) throws {
        #expect(throws: SyncWireError.self) { try SyncHeldRanges(decoding: Fixtures.bytes32(0) + body) }
        #expect(throws: SyncWireError.self) { try SyncFrame.decodeAll([0x06] + Fixtures.bytes32(0) + body) }
    }

    @Test("truncated and over-long held ranges are malformed")
    func truncation() throws {
        let good = Fixtures.bytes32(0) + [0x01, 0, 0, 0, 1, 0, 0, 0, 2]
        #expect(throws: SyncWireError.self) { try SyncHeldRanges(decoding: Array(good.dropLast())) }
        #expect(throws: SyncWireError.self) { try SyncHeldRanges(decoding: good + [0]) }
        #expect(throws: SyncWireError.self) { try SyncFrame.decodeAll([0x07] + Fixtures.bytes32(0)) }
        #expect(throws: SyncWireError.self) { try SyncFrame.decodeAll([0x09] + Fixtures.bytes32(0).dropLast()) }
    }

    @Test("encoding refuses an invalid record")
    func encodingRefuses() throws {
        let empty = SyncHeldRanges(feedTag: try Fixtures.feedTag(0), ranges: [])
        #expect(throws: SyncWireError.self) { try empty.encoded() }
        let tooMany = SyncHeldRanges(feedTag: try Fixtures.feedTag(0), ranges: (0..<256).map { UInt32($0 * 2)...UInt32($0 * 2) })
        #expect(throws: SyncWireError.self) { try SyncFrame.held(tooMany).encoded() }
    }

    @Test("sequences coalesce into ranges, and records split to fit the smallest MTU")
    func coalesceAndSplit() throws {
        #expect(SyncHeldRanges.ranges(of: [9, 3, 4, 5, 7, 4, 0xFFFF_FFFF]) == [3...5, 7...7, 9...9])
        let ranges = (0..<100).map { UInt32($0 * 3)...UInt32($0 * 3) }
        let layout = try FrameLayout(mtu: 20)
        let records = SyncHeldRanges.records(feedTag: try Fixtures.feedTag(0), ranges: ranges, plaintextCapacity: layout.plaintextCapacity)
        #expect(records.flatMap(\.ranges) == ranges)
        for record in records {
            #expect(try SyncFrame.held(record).encoded().count <= layout.plaintextCapacity)
        }
    }
}
