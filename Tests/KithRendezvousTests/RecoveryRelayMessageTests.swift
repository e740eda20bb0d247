import Crypto
import KithContinuity
import KithRendezvous
import Testing

@Suite("Recovery relay messages: round trip and bounded, typed refusals")
struct RecoveryRelayMessageTests {
    @Test("each message reads back as written")
    func roundTrip() throws {
        let owner = Array(SHA256.hash(data: [1]))
        let set = try RecoveryShareSet.split(secret: Array(repeating: 7, count: 32), ownerFeedID: owner, threshold: 2, shareCount: 2, generation: 1)
        let request = try RecoveryRequestKey.make(ownerFeedID: owner).request
        let release = try RecoveryRelease.seal(set.shares[0], for: request)
        for message in [RecoveryRelayMessage.request(request), .release(release), .declined, .accepted, .refused] {
            #expect(try RecoveryRelayMessage(decoding: message.encoded) == message)
        }
        #expect(RecoveryRelayMessage.release(release).encoded.count <= RelayNoiseChannel.maximumPlaintextBytes)
    }

    @Test("the largest release a guardian can send fits one channel message")
    func largestReleaseFits() {
        #expect(1 + RecoveryLimits.maxEncodedReleaseBytes <= RelayNoiseChannel.maximumPlaintextBytes)
    }

    @Test("empty, unknown, padded, truncated and oversized messages are refused as malformed")
    func refusals() throws {
        let request = try RecoveryRequestKey.make(ownerFeedID: Array(SHA256.hash(data: [2]))).request
        let refused: [[UInt8]] = [
            [],
            [0x09],
            [0x03, 0x00],
            [0x04, 0xFF],
            [0x01] + request.encoded.dropLast(),
            [0x01] + request.encoded + [0x00],
            [0x02] + Array(repeating: 0x41, count: RecoveryLimits.maxEncodedReleaseBytes + 1),
            [0x02, 0x4B, 0x52, 0x4C],
        ]
        for bytes in refused {
            #expect(throws: RecoveryRelayError.self) { try RecoveryRelayMessage(decoding: bytes) }
        }
    }
}
