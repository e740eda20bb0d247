import KithCanonical
import KithConvos
import Testing

@testable import KithGroups

@Suite struct AppDataCompressionTests {
    typealias Support = MetadataTestSupport

    /// A record whose protobuf is exactly `size` bytes of very compressible text (a tag of `size - 2` letters).
    private func record(protobufSize size: Int) throws -> (ConversationMetadata, [UInt8]) {
        let protobuf = ProtoBytes.field(1, string: String(repeating: "a", count: size - 2))
        #expect(protobuf.count == size)
        return (try ConversationMetadata(appData: Support.appData(protobuf: protobuf)), protobuf)
    }

    @Test func atMostOneHundredBytesIsNeverCompressed() throws {
        // (From 3 bytes: an empty tag is not written at all in proto3.)
        for size in [3, 50, 99, 100] {
            let (metadata, protobuf) = try record(protobufSize: size)
            #expect(try Support.frame(of: metadata.encodedAppData()) == protobuf)
        }
    }

    @Test func overOneHundredBytesIsCompressedWhenSmaller() throws {
        let (metadata, protobuf) = try record(protobufSize: 101)
        let frame = try Support.frame(of: metadata.encodedAppData())
        #expect(frame.first == 0x1F)
        #expect(Array(frame[1...4]) == [0, 0, 0, 101])
        #expect(frame.count < protobuf.count)
        #expect(try AppDataFrame.unpack(frame) == protobuf)
    }

    @Test func packLeavesIncompressibleBytesAlone() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let protobuf = ProtoBytes.field(4, bytes: random)
        #expect(AppDataFrame.pack(protobuf) == protobuf)
    }

    @Test func packWritesRawDeflateThatUnpackReads() throws {
        let protobuf = [UInt8](repeating: 0x42, count: 500)
        let frame = AppDataFrame.pack(protobuf)
        #expect(frame.first == AppDataFrame.compressionMarker)
        // A raw DEFLATE body: no zlib header (0x78 …).
        #expect(frame[5] != 0x78)
        #expect(try AppDataFrame.unpack(frame) == protobuf)
    }

    @Test func unpackAcceptsZlibWrappedBodies() throws {
        // zlib stream of 500 × 0x42 built from the raw DEFLATE body: header 78 DA, body, Adler-32 big-endian.
        let protobuf = [UInt8](repeating: 0x42, count: 500)
        let raw = try #require(Deflate.compressRaw(protobuf))
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in protobuf {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        let zlib = [0x78, 0xDA] + raw + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        let frame: [UInt8] = [0x1F, 0, 0, 0x01, 0xF4] + zlib
        #expect(try AppDataFrame.unpack(frame) == protobuf)
    }
}
