import KithInvites
import Testing

/// The `0x1F ‖ u32be ‖ DEFLATE` frame: limits, bombs and corrupt bodies.
struct InviteFrameTests {
    static func header(_ size: Int) -> [UInt8] {
        [0x1F, UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
    }

    @Test func uncompressedFramesPassThrough() throws {
        #expect(try InviteFrame.unpack([0x0A, 0x01, 0x00]) == [0x0A, 0x01, 0x00])
    }

    @Test func zeroAndOversizedDeclarationsAreRejected() {
        #expect(throws: InviteError.declaredSizeOutOfRange(declared: 0, limit: InviteLimits.maxSignedInviteBytes)) {
            try InviteFrame.unpack(Self.header(0) + [1, 2, 3])
        }
        let over = InviteLimits.maxSignedInviteBytes + 1
        #expect(throws: InviteError.declaredSizeOutOfRange(declared: over, limit: InviteLimits.maxSignedInviteBytes)) {
            try InviteFrame.unpack(Self.header(over) + [UInt8](repeating: 0, count: 20_000))
        }
        #expect(throws: InviteError.truncatedFrame(bytes: 3)) { try InviteFrame.unpack([0x1F, 0, 0]) }
        #expect(throws: InviteError.truncatedFrame(bytes: 5)) { try InviteFrame.unpack(Self.header(10)) }
    }

    @Test func decompressionBombIsRefusedBeforeInflating() {
        // 1 MiB of zeros compresses to about 1 KiB: a ratio near 1000, refused from the header alone.
        let body = [UInt8](repeating: 0, count: 1_000)
        #expect(throws: InviteError.compressionRatioTooHigh(declared: 1 << 20, compressedBytes: 1_000, limit: 100)) {
            try InviteFrame.unpack(Self.header(1 << 20) + body)
        }
    }

    @Test func corruptAndMismatchedBodies() throws {
        #expect(throws: InviteError.corruptCompressedBody) {
            try InviteFrame.unpack(Self.header(10) + [0xFF, 0xFF, 0xFF, 0xFF])
        }
        // A real raw-DEFLATE body of 600 bytes declared as 500 (longer) and 700 (shorter).
        let original = [UInt8](repeating: 0x41, count: 600)
        let framed = InviteFrame.pack(original)
        #expect(framed.first == 0x1F)
        #expect(try InviteFrame.unpack(framed) == original)
        let body = Array(framed.dropFirst(5))
        #expect(throws: InviteError.decompressedSizeMismatch(declared: 500, actual: nil)) {
            try InviteFrame.unpack(Self.header(500) + body)
        }
        #expect(throws: InviteError.decompressedSizeMismatch(declared: 700, actual: 600)) {
            try InviteFrame.unpack(Self.header(700) + body)
        }
        // Trailing garbage after a complete stream.
        #expect(throws: InviteError.self) { try InviteFrame.unpack(framed + [0x00, 0x01]) }
    }
}
