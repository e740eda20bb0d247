import KithCanonical
import KithSync
import Testing

@Suite("zstd with the built-in envelope dictionary (flag 0x02)")
struct EnvelopeDictionaryTests {
    /// A spec 3.1 envelope with random base64url fields, ~600 bytes.
    static func envelope(seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        func b64(_ count: Int) -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            return String((0..<count).map { _ in alphabet[Int(generator.next() % 64)] })
        }
        return Array((
            "{\"audience\":\"contacts\",\"content_enc\":\"\(b64(380))\",\"feed_id\":\"\(b64(43))\","
                + "\"previous\":\"\(b64(43))\",\"sequence\":\(seed),\"signature\":\"\(b64(86))\","
                + "\"timestamp\":\(1_760_000_000 + seed),\"type\":\"post\",\"version\":1}"
        ).utf8)
    }

    @Test("the dictionary is raw content, not a zstd dictionary")
    func rawContent() {
        #expect(Array(EnvelopeDictionary.version1.prefix(4)) != [0x37, 0xA4, 0x30, 0xEC])
        #expect(EnvelopeDictionary.version1.count > 1000)
    }

    @Test("envelopes round-trip with flag 0x02 and compress smaller than without the dictionary")
    func roundTripSmaller() throws {
        var plain = 0
        var withDictionary = 0
        for seed in 0..<20 {
            let envelope = Self.envelope(seed: UInt64(seed))
            let body = MessageBody.encode(envelope: envelope, compressionNegotiated: true, dictionaryNegotiated: true)
            #expect(body.first == MessageBody.zstdDictionaryFlag)
            #expect(try MessageBody.decode(body, compressionNegotiated: true, dictionaryNegotiated: true) == envelope)
            withDictionary += body.count
            plain += MessageBody.encode(envelope: envelope, compressionNegotiated: true).count
        }
        #expect(withDictionary < plain)
    }

    @Test("flag 0x02 is refused unless the dictionary capability was negotiated")
    func refusedWithoutCapability() throws {
        let envelope = Self.envelope(seed: 1)
        let body = MessageBody.encode(envelope: envelope, compressionNegotiated: true, dictionaryNegotiated: true)
        #expect(throws: CompressionError.unknownEncoding(0x02)) {
            try MessageBody.decode(body, compressionNegotiated: true)
        }
    }

    @Test("a frame compressed with the dictionary does not decode without it")
    func needsDictionary() throws {
        let envelope = Self.envelope(seed: 2)
        let frame = try EnvelopeCompression.compress(envelope, dictionary: EnvelopeDictionary.version1)
        #expect(throws: CompressionError.self) {
            try EnvelopeCompression.decompress(frame, declaredSize: envelope.count)
        }
        #expect(try EnvelopeCompression.decompress(frame, declaredSize: envelope.count, dictionary: EnvelopeDictionary.version1) == envelope)
    }

    @Test("the size bounds still apply with the dictionary")
    func bounded() throws {
        let frame = try EnvelopeCompression.compress([UInt8](repeating: 0x41, count: 70_000), dictionary: EnvelopeDictionary.version1)
        #expect(throws: CompressionError.declaredSizeTooLarge(70_000)) {
            try EnvelopeCompression.decompress(frame, declaredSize: 70_000, dictionary: EnvelopeDictionary.version1)
        }
        #expect(throws: CompressionError.contentSizeMismatch(declared: 100, frame: 70_000)) {
            try EnvelopeCompression.decompress(frame, declaredSize: 100, dictionary: EnvelopeDictionary.version1)
        }
    }
}
