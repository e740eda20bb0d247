import CZstd
import KithCanonical
import KithSync
import Testing

/// Builds a zstd frame with or without a content size field, for crafting bombs.
private func zstdFrame(_ input: [UInt8], includeContentSize: Bool) throws -> [UInt8] {
    let context = try #require(ZSTD_createCCtx())
    defer { ZSTD_freeCCtx(context) }
    ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, includeContentSize ? 1 : 0)
    var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
    let capacity = output.count
    let written = output.withUnsafeMutableBytes { destination in
        input.withUnsafeBytes { source in
            ZSTD_compress2(context, destination.baseAddress, capacity, source.baseAddress, input.count)
        }
    }
    #expect(ZSTD_isError(written) == 0)
    return Array(output.prefix(written))
}

@Suite("zstd envelope compression and bomb defence")
struct CompressionTests {
    @Test("envelopes round-trip through the compressed body encoding")
    func roundTrip() throws {
        let envelope = Fixtures.envelope(4000, seed: 3)
        let body = MessageBody.encode(envelope: envelope, compressionNegotiated: true)
        #expect(body.first == MessageBody.zstdFlag)
        #expect(body.count < envelope.count / 2)
        #expect(Array(body[1..<5]) == [0, 0, 0x0F, 0xA0])
        #expect(try MessageBody.decode(body, compressionNegotiated: true) == envelope)
    }

    @Test("incompressible envelopes are sent raw with flag 0x00")
    func rawFallback() throws {
        let envelope = Fixtures.randomBytes(500, seed: 9)
        let body = MessageBody.encode(envelope: envelope, compressionNegotiated: true)
        #expect(body == [MessageBody.rawFlag] + envelope)
        #expect(try MessageBody.decode(body, compressionNegotiated: true) == envelope)
    }

    @Test("without the capability the body is the envelope itself")
    func notNegotiated() throws {
        let envelope = Fixtures.envelope(300)
        #expect(MessageBody.encode(envelope: envelope, compressionNegotiated: false) == envelope)
        #expect(try MessageBody.decode(envelope, compressionNegotiated: false) == envelope)
    }

    @Test("a bomb declaring more than 64 KB is refused before decoding")
    func declaredTooLarge() throws {
        let bomb = try zstdFrame([UInt8](repeating: 0, count: 10_000_000), includeContentSize: true)
        #expect(bomb.count < 1_000)
        #expect(throws: CompressionError.declaredSizeTooLarge(10_000_000)) {
            try EnvelopeCompression.decompress(bomb, declaredSize: 10_000_000)
        }
        var body = ByteWriter()
        body.write(MessageBody.zstdFlag)
        body.write(UInt32(10_000_000))
        body.write(bytes: bomb)
        #expect(throws: CompressionError.declaredSizeTooLarge(10_000_000)) {
            try MessageBody.decode(body.bytes, compressionNegotiated: true)
        }
    }

    @Test("a bomb lying about its size (small declared, large frame) is refused")
    func declaredSmallFrameLarge() throws {
        let bomb = try zstdFrame([UInt8](repeating: 0, count: 10_000_000), includeContentSize: true)
        #expect(throws: CompressionError.contentSizeMismatch(declared: 1000, frame: 10_000_000)) {
            try EnvelopeCompression.decompress(bomb, declaredSize: 1000)
        }
    }

    @Test("a frame without a content size is refused")
    func missingContentSize() throws {
        let frame = try zstdFrame([UInt8](repeating: 0, count: 1_000_000), includeContentSize: false)
        #expect(throws: CompressionError.missingContentSize) {
            try EnvelopeCompression.decompress(frame, declaredSize: 1000)
        }
    }

    @Test("trailing bytes, a second frame and garbage are refused")
    func trailingAndGarbage() throws {
        let frame = try EnvelopeCompression.compress(Fixtures.envelope(1000))
        #expect(throws: CompressionError.trailingBytes(frame.count)) {
            try EnvelopeCompression.decompress(frame + frame, declaredSize: 1000)
        }
        #expect(throws: CompressionError.notZstdFrame) {
            try EnvelopeCompression.decompress([1, 2, 3, 4, 5, 6, 7, 8], declaredSize: 1000)
        }
        #expect(throws: CompressionError.notZstdFrame) { try EnvelopeCompression.decompress([], declaredSize: 10) }
        #expect(throws: CompressionError.emptyEnvelope) { try EnvelopeCompression.decompress(frame, declaredSize: 0) }
    }

    @Test("a truncated or corrupted frame is refused")
    func corrupted() throws {
        let envelope = Fixtures.envelope(2000)
        let frame = try EnvelopeCompression.compress(envelope)
        #expect(throws: CompressionError.self) { try EnvelopeCompression.decompress(Array(frame.dropLast(3)), declaredSize: 2000) }
        var flipped = frame
        flipped[flipped.count / 2] ^= 0xFF
        let outcome = Result { try EnvelopeCompression.decompress(flipped, declaredSize: 2000) }
        if case .success(let bytes) = outcome { #expect(bytes.count == 2000) }
    }

    @Test("bodies too short for their encoding are refused")
    func truncatedBodies() {
        #expect(throws: CompressionError.truncatedBody) { try MessageBody.decode([], compressionNegotiated: true) }
        #expect(throws: CompressionError.truncatedBody) { try MessageBody.decode([0x00], compressionNegotiated: true) }
        #expect(throws: CompressionError.truncatedBody) { try MessageBody.decode([0x01, 0, 0], compressionNegotiated: true) }
    }

    @Test("a compressed message reassembles and verifies against the uncompressed hash")
    func reassembleCompressed() throws {
        let envelope = Fixtures.envelope(20_000, seed: 5)
        let id = SyncMessageID(envelope: envelope)
        let body = MessageBody.encode(envelope: envelope, compressionNegotiated: true)
        let chunks = try MessageFragmenter.chunks(messageID: id, body: body, chunkDataLength: 76)
        var reassembler = MessageReassembler(compressionNegotiated: true)
        var result: ReceivedMessage?
        for chunk in chunks { result = try reassembler.accept(chunk, now: 0) }
        #expect(result?.envelope == envelope)
    }
}
