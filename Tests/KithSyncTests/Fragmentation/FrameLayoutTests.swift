import KithSync
import Testing

@Suite("Frame layout per MTU")
struct FrameLayoutTests {
    @Test("documented layouts for ATT MTU 23, 185, 247 and 512")
    func documentedLayouts() throws {
        let mtu20 = try FrameLayout(mtu: 20)
        #expect(mtu20.segmentsPerSealedFrame == 16)
        #expect(mtu20.sealedFrameLength == 304)
        #expect(mtu20.plaintextCapacity == 286)
        #expect(mtu20.chunkDataLength == 247)
        #expect(mtu20.overheadPerChunk == 73)

        let mtu182 = try FrameLayout(mtu: 182)
        #expect(mtu182.segmentsPerSealedFrame == 16)
        #expect(mtu182.sealedFrameLength == 2896)
        #expect(mtu182.chunkDataLength == 2839)

        let mtu244 = try FrameLayout(mtu: 244)
        #expect(mtu244.segmentsPerSealedFrame == 16)
        #expect(mtu244.sealedFrameLength == 3888)
        #expect(mtu244.plaintextCapacity == 3870)
        #expect(mtu244.chunkDataLength == 3831)
        #expect(mtu244.overheadPerChunk == 73)

        let mtu509 = try FrameLayout(mtu: 509)
        #expect(mtu509.segmentsPerSealedFrame == 8)
        #expect(mtu509.sealedFrameLength == 4064)
        #expect(mtu509.chunkDataLength == 4007)
    }

    @Test("a full chunk record fills exactly one sealed frame of whole link frames at every MTU")
    func chunkFillsSealedFrame() throws {
        for mtu in SyncLimits.minimumMTU...SyncLimits.maximumMTU {
            let layout = try FrameLayout(mtu: mtu)
            #expect(layout.chunkDataLength + 39 == layout.plaintextCapacity)
            #expect(layout.sealedFrameLength == layout.segmentsPerSealedFrame * (mtu - 1))
            #expect(layout.sealedFrameLength <= SyncLimits.maximumLinkMessageLength)
            #expect(layout.segmentsPerSealedFrame <= SyncLimits.maximumSegmentsPerSealedFrame)
            #expect(layout.linkBytes(plaintextLength: layout.plaintextCapacity) == layout.segmentsPerSealedFrame * mtu)
            // A ~600-byte envelope is one chunk at every MTU from 185 up.
            if mtu >= 182 { #expect(layout.chunkDataLength >= 2048) }
        }
    }

    @Test("MTUs outside 20...509 are refused")
    func unsupportedMTU() {
        #expect(throws: SecureLinkError.unsupportedMTU(19)) { try FrameLayout(mtu: 19) }
        #expect(throws: SecureLinkError.unsupportedMTU(510)) { try FrameLayout(mtu: 510) }
    }
}
