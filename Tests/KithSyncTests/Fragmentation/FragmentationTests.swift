import KithCanonical
import KithSync
import PropertyBased
import Testing

@Suite("Fragmentation and reassembly")
struct FragmentationTests {
    @Test("fragment and reassemble at ATT MTU 23, 185, 247 and 512", arguments: [23, 185, 244, 247, 512])
    func roundTripAtMTU(attMTU: Int) throws {
        let layout = try FrameLayout(mtu: Fixtures.payload(attMTU: attMTU))
        for length in [1, layout.chunkDataLength, layout.chunkDataLength + 1, 600, 5_000, SyncLimits.maximumMessageLength] {
            let envelope = Fixtures.envelope(length, seed: length)
            let id = SyncMessageID(envelope: envelope)
            let chunks = try MessageFragmenter.chunks(messageID: id, body: envelope, chunkDataLength: layout.chunkDataLength)
            #expect(chunks.count == (length + layout.chunkDataLength - 1) / layout.chunkDataLength)
            #expect(chunks.allSatisfy { $0.data.count <= layout.chunkDataLength && Int($0.totalChunks) == chunks.count })
            var reassembler = MessageReassembler()
            var result: ReceivedMessage?
            for chunk in chunks.reversed() {
                result = try reassembler.accept(chunk, now: 0)
            }
            #expect(result == ReceivedMessage(messageID: id, envelope: envelope))
            #expect(reassembler.inProgressCount == 0)
            #expect(reassembler.bufferedBytes == 0)
        }
    }

    @Test("any order of chunks reassembles the message")
    func anyOrderProperty() async {
        await propertyCheck(input: Gen.int(in: 1...3000), Gen.int(in: 20...300), Gen.uint64()) { length, chunkSize, seed in
            let envelope = Fixtures.randomBytes(length, seed: seed)
            let id = SyncMessageID(envelope: envelope)
            var chunks = try MessageFragmenter.chunks(messageID: id, body: envelope, chunkDataLength: chunkSize)
            var generator = SplitMix64(seed: seed)
            chunks.shuffle(using: &generator)
            var reassembler = MessageReassembler()
            var results: [ReceivedMessage] = []
            for chunk in chunks {
                if let message = try reassembler.accept(chunk, now: 0) { results.append(message) }
            }
            #expect(results == [ReceivedMessage(messageID: id, envelope: envelope)])
        }
    }

    @Test("fragmenter rejections")
    func fragmenterRejections() throws {
        let id = try Fixtures.messageID(1)
        #expect(throws: FragmentationError.emptyBody) { try MessageFragmenter.chunks(messageID: id, body: [], chunkDataLength: 10) }
        #expect(throws: FragmentationError.invalidChunkDataLength(0)) { try MessageFragmenter.chunks(messageID: id, body: [1], chunkDataLength: 0) }
        let huge = [UInt8](repeating: 1, count: SyncLimits.maximumBodyLength + 1)
        #expect(throws: FragmentationError.bodyTooLarge(huge.count)) { try MessageFragmenter.chunks(messageID: id, body: huge, chunkDataLength: 100) }
        let big = [UInt8](repeating: 1, count: 5000)
        #expect(throws: FragmentationError.tooManyChunks(5000)) { try MessageFragmenter.chunks(messageID: id, body: big, chunkDataLength: 1) }
    }
}
