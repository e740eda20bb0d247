import KithSync
import Testing

@Suite("Reassembly rejections")
struct ReassemblyRejectionTests {
    let envelope = Fixtures.envelope(1000, seed: 7)
    var id: SyncMessageID { SyncMessageID(envelope: envelope) }

    func chunks(_ size: Int = 100) throws -> [SyncChunk] {
        try MessageFragmenter.chunks(messageID: id, body: envelope, chunkDataLength: size)
    }

    @Test("zero total, index out of range and empty data")
    func structural() throws {
        var reassembler = MessageReassembler()
        #expect(throws: ReassemblyError.zeroTotalChunks(id)) {
            try reassembler.accept(SyncChunk(messageID: id, chunkIndex: 0, totalChunks: 0, data: [1]), now: 0)
        }
        #expect(throws: ReassemblyError.chunkIndexOutOfRange(id, index: 5, total: 5)) {
            try reassembler.accept(SyncChunk(messageID: id, chunkIndex: 5, totalChunks: 5, data: [1]), now: 0)
        }
        #expect(throws: ReassemblyError.emptyChunk(id)) {
            try reassembler.accept(SyncChunk(messageID: id, chunkIndex: 0, totalChunks: 2, data: []), now: 0)
        }
        #expect(throws: ReassemblyError.tooManyChunks(id, total: 5000)) {
            try reassembler.accept(SyncChunk(messageID: id, chunkIndex: 0, totalChunks: 5000, data: [1]), now: 0)
        }
        #expect(reassembler.inProgressCount == 0)
    }

    @Test("a chunk not matching the message's declared total_chunks drops the message")
    func totalMismatch() throws {
        var reassembler = MessageReassembler()
        let parts = try chunks()
        _ = try reassembler.accept(parts[0], now: 0)
        var wrong = parts[1]
        wrong.totalChunks = 11
        #expect(throws: ReassemblyError.totalChunksMismatch(id, declared: 10, received: 11)) {
            try reassembler.accept(wrong, now: 0)
        }
        #expect(reassembler.inProgressCount == 0)
        #expect(reassembler.bufferedBytes == 0)
    }

    @Test("duplicates are rejected and the message survives")
    func duplicate() throws {
        var reassembler = MessageReassembler()
        let parts = try chunks()
        _ = try reassembler.accept(parts[3], now: 0)
        #expect(throws: ReassemblyError.duplicateChunk(id, index: 3)) { try reassembler.accept(parts[3], now: 0) }
        var result: ReceivedMessage?
        for (index, part) in parts.enumerated() where index != 3 {
            result = try reassembler.accept(part, now: 0)
        }
        #expect(result?.envelope == envelope)
    }

    @Test("a message larger than the per-message bound is dropped")
    func tooLarge() throws {
        var reassembler = MessageReassembler(limits: ReassemblyLimits(maximumBodyLength: 250))
        let parts = try chunks()
        _ = try reassembler.accept(parts[0], now: 0)
        _ = try reassembler.accept(parts[1], now: 0)
        #expect(throws: ReassemblyError.messageTooLarge(id, bytes: 300)) { try reassembler.accept(parts[2], now: 0) }
        #expect(reassembler.inProgressCount == 0)
        #expect(reassembler.bufferedBytes == 0)
    }

    @Test("the default per-message bound is 64 KB of envelope")
    func defaultBound() throws {
        var reassembler = MessageReassembler()
        let other = try Fixtures.messageID(9)
        let data = [UInt8](repeating: 7, count: 60_000)
        _ = try reassembler.accept(SyncChunk(messageID: other, chunkIndex: 0, totalChunks: 3, data: data), now: 0)
        #expect(throws: ReassemblyError.messageTooLarge(other, bytes: 120_000)) {
            try reassembler.accept(SyncChunk(messageID: other, chunkIndex: 1, totalChunks: 3, data: data), now: 0)
        }
    }

    @Test("concurrent reassemblies are bounded")
    func concurrency() throws {
        var reassembler = MessageReassembler(limits: ReassemblyLimits(maximumConcurrentReassemblies: 2))
        for start in UInt8(0)..<2 {
            _ = try reassembler.accept(SyncChunk(messageID: try Fixtures.messageID(start), chunkIndex: 0, totalChunks: 2, data: [1]), now: 0)
        }
        #expect(throws: ReassemblyError.tooManyConcurrentReassemblies(limit: 2)) {
            try reassembler.accept(SyncChunk(messageID: try Fixtures.messageID(9), chunkIndex: 0, totalChunks: 2, data: [1]), now: 0)
        }
    }

    @Test("total buffered bytes are bounded")
    func bufferBound() throws {
        var reassembler = MessageReassembler(limits: ReassemblyLimits(maximumBufferedBytes: 150))
        _ = try reassembler.accept(SyncChunk(messageID: try Fixtures.messageID(1), chunkIndex: 0, totalChunks: 2, data: [UInt8](repeating: 1, count: 100)), now: 0)
        #expect(throws: ReassemblyError.bufferFull(limit: 150)) {
            try reassembler.accept(SyncChunk(messageID: try Fixtures.messageID(2), chunkIndex: 0, totalChunks: 2, data: [UInt8](repeating: 1, count: 51)), now: 0)
        }
        #expect(reassembler.bufferedBytes == 100)
    }

    @Test("idle reassemblies time out on the injected clock")
    func timeout() async throws {
        let clock = ManualSyncClock()
        var reassembler = MessageReassembler(limits: ReassemblyLimits(inactivityTimeout: 10))
        let parts = try chunks()
        _ = try reassembler.accept(parts[0], now: await clock.now())
        clock.advance(by: 9)
        _ = try reassembler.accept(parts[1], now: await clock.now())
        clock.advance(by: 9.5)
        #expect(reassembler.expire(now: await clock.now()).isEmpty)
        clock.advance(by: 1)
        #expect(reassembler.expire(now: await clock.now()) == [id])
        #expect(reassembler.inProgressCount == 0)
        #expect(reassembler.bufferedBytes == 0)
        // A late chunk starts a fresh reassembly rather than completing the stale one.
        _ = try reassembler.accept(parts[2], now: await clock.now())
        #expect(reassembler.bufferedBytes == 100)
    }

    @Test("an assembled message that does not hash to its id is rejected")
    func hashMismatch() throws {
        var reassembler = MessageReassembler()
        var parts = try chunks()
        parts[4].data[0] ^= 0x01
        var thrown: ReassemblyError?
        for part in parts {
            do { _ = try reassembler.accept(part, now: 0) } catch { thrown = error }
        }
        #expect(thrown == .hashMismatch(id))
        #expect(reassembler.inProgressCount == 0)
    }

    @Test("a compressed body whose flag is unknown is rejected")
    func invalidBody() throws {
        var reassembler = MessageReassembler(compressionNegotiated: true)
        #expect(throws: ReassemblyError.invalidBody(id, .unknownEncoding(0x07))) {
            try reassembler.accept(SyncChunk(messageID: id, chunkIndex: 0, totalChunks: 1, data: [0x07, 1, 2]), now: 0)
        }
    }
}

@Suite("Reassembly of compressed bodies")
struct CompressedReassemblyTests {
    @Test("a decompression bomb arriving as chunks is rejected")
    func bombThroughReassembly() throws {
        let envelope = [UInt8](repeating: 0, count: 10_000_000)
        let frame = try EnvelopeCompression.compress(envelope)
        let body = [MessageBody.zstdFlag, 0x00, 0x98, 0x96, 0x80] + frame
        let id = SyncMessageID(envelope: envelope)
        let chunks = try MessageFragmenter.chunks(messageID: id, body: body, chunkDataLength: 186)
        var reassembler = MessageReassembler(compressionNegotiated: true)
        var thrown: ReassemblyError?
        for chunk in chunks {
            do { _ = try reassembler.accept(chunk, now: 0) } catch { thrown = error }
        }
        #expect(thrown == .invalidBody(id, .declaredSizeTooLarge(10_000_000)))
    }
}
