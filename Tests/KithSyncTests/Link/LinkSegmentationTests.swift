import KithSync
import PropertyBased
import Testing

@Suite("Link segmentation")
struct LinkSegmentationTests {
    @Test("segment headers carry FIRST, LAST and a 6-bit counter")
    func headers() {
        var segmenter = LinkSegmenter()
        let frames = segmenter.segments(of: Array(0..<40), mtu: 20)
        #expect(frames.map { $0[0] } == [0x80, 0x01, 0x42])
        #expect(frames.map(\.count) == [20, 20, 3])
        #expect(segmenter.segments(of: [7], mtu: 20) == [[0xC3, 7]])
    }

    @Test("messages survive segmentation at any MTU")
    func roundTrip() async {
        await propertyCheck(input: Gen.int(in: 1...2048), Gen.int(in: 20...509)) { length, mtu in
            var segmenter = LinkSegmenter()
            var reassembler = LinkSegmentReassembler()
            let message = Fixtures.randomBytes(length, seed: UInt64(length))
            var output: [[UInt8]] = []
            for _ in 0..<3 {
                for frame in segmenter.segments(of: message, mtu: mtu) {
                    #expect(frame.count <= mtu)
                    if let complete = try reassembler.accept(frame) { output.append(complete) }
                }
            }
            #expect(output == [message, message, message])
        }
    }

    @Test("a lost frame discards only the damaged message")
    func lostFrame() throws {
        var segmenter = LinkSegmenter()
        var reassembler = LinkSegmentReassembler()
        let first = segmenter.segments(of: [UInt8](repeating: 1, count: 50), mtu: 20)
        let second = segmenter.segments(of: [UInt8](repeating: 2, count: 50), mtu: 20)
        var delivered: [[UInt8]] = []
        for (index, frame) in (first + second).enumerated() where index != 1 {
            if let message = try reassembler.accept(frame) { delivered.append(message) }
        }
        #expect(delivered == [[UInt8](repeating: 2, count: 50)])
        #expect(reassembler.damagedMessages == 1)
        #expect(reassembler.missingFrames == 1)
    }

    @Test("empty frames and over-long messages are refused")
    func rejections() throws {
        var reassembler = LinkSegmentReassembler(maximumLength: 30)
        #expect(throws: SecureLinkError.emptyLinkFrame) { try reassembler.accept([]) }
        var segmenter = LinkSegmenter()
        let frames = segmenter.segments(of: [UInt8](repeating: 0, count: 40), mtu: 20)
        var other = LinkSegmentReassembler(maximumLength: 30)
        _ = try other.accept(frames[0])
        #expect(throws: SecureLinkError.linkMessageTooLong(30)) { try other.accept(frames[1]) }
    }
}
