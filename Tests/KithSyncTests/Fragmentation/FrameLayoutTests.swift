import KithSync
import Testing

@Suite("Frame layout per MTU")
struct FrameLayoutTests {
    @Test("documented layouts for ATT MTU 23, 185, 247 and 512")
    func documentedLayouts() throws {
        let mtu20 = try FrameLayout(mtu: 20)
        #expect(mtu20.segmentsPerSealedFrame == 7)
        #expect(mtu20.sealedFrameLength == 133)
        #expect(mtu20.plaintextCapacity == 115)
        #expect(mtu20.chunkDataLength == 76)
        #expect(mtu20.overheadPerChunk == 64)

        let mtu182 = try FrameLayout(mtu: 182)
        #expect(mtu182.segmentsPerSealedFrame == 1)
        #expect(mtu182.chunkDataLength == 124)

        let mtu244 = try FrameLayout(mtu: 244)
        #expect(mtu244.segmentsPerSealedFrame == 1)
        #expect(mtu244.sealedFrameLength == 243)
        #expect(mtu244.plaintextCapacity == 225)
        #expect(mtu244.chunkDataLength == 186)
        #expect(mtu244.overheadPerChunk == 58)

        let mtu509 = try FrameLayout(mtu: 509)
        #expect(mtu509.chunkDataLength == 451)
    }

    @Test("a full chunk record fills exactly one sealed frame at every MTU")
    func chunkFillsSealedFrame() throws {
        for mtu in SyncLimits.minimumMTU...SyncLimits.maximumMTU {
            let layout = try FrameLayout(mtu: mtu)
            #expect(layout.chunkDataLength + 39 == layout.plaintextCapacity)
            #expect(layout.sealedFrameLength == layout.segmentsPerSealedFrame * (mtu - 1))
            #expect(layout.plaintextCapacity >= SyncLimits.minimumSealedPlaintext)
            #expect(layout.chunkDataLength > 0)
        }
    }

    @Test("MTUs outside 20...509 are refused")
    func unsupportedMTU() {
        #expect(throws: SecureLinkError.unsupportedMTU(19)) { try FrameLayout(mtu: 19) }
        #expect(throws: SecureLinkError.unsupportedMTU(510)) { try FrameLayout(mtu: 510) }
    }
}
