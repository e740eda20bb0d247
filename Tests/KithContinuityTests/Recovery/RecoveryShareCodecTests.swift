import KithCanonical
import Testing

@testable import KithContinuity

/// The binary and text forms of a share, read through the bounded cursor.
@Suite struct RecoveryShareCodecTests {
    static func share() throws -> RecoveryShare {
        try RecoveryShareSet.split(secret: [1, 2, 3, 4], ownerFeedID: [UInt8](repeating: 7, count: 32), threshold: 2,
                                   shareCount: 3, generation: 9).shares[1]
    }

    @Test func roundTrips() throws {
        let share = try Self.share()
        #expect(try RecoveryShare(encoded: share.encoded) == share)
        #expect(try RecoveryShare(text: " \(share.text)\n") == share)
        #expect(share.encoded.count == RecoveryShare.headerBytes + 2 + 4 + 32)
        #expect(share.secretByteCount == 4)
    }

    @Test func everyTruncationIsATypedRejection() throws {
        let bytes = try Self.share().encoded
        for length in 0..<bytes.count {
            #expect(throws: RecoveryError.self) { try RecoveryShare(encoded: Array(bytes.prefix(length))) }
        }
        #expect(throws: RecoveryError.self) { try RecoveryShare(encoded: bytes + [0]) }
    }

    @Test func outOfRangeFieldsAreRefused() throws {
        let bytes = try Self.share().encoded
        let thresholdAt = 4 + 16 + 4
        func patched(_ offset: Int, _ value: UInt8) -> [UInt8] {
            var copy = bytes
            copy[offset] = value
            return copy
        }
        for (offset, value) in [(3, UInt8(2)), (0, UInt8(0x41)), (thresholdAt, 1), (thresholdAt, 17),
                                (thresholdAt + 1, 1), (thresholdAt + 1, 17), (thresholdAt + 2, 0), (thresholdAt + 2, 4)] {
            #expect(throws: RecoveryError.self) { try RecoveryShare(encoded: patched(offset, value)) }
        }
        // A value no longer than the digest carries no secret.
        var short = Array(bytes.prefix(RecoveryShare.headerBytes))
        short += [0, 32] + [UInt8](repeating: 0, count: 32)
        #expect(throws: RecoveryError.self) { try RecoveryShare(encoded: short) }
        #expect(throws: RecoveryError.self) { try RecoveryShare(encoded: [UInt8](repeating: 0, count: 5000)) }
        #expect(throws: RecoveryError.self) { try RecoveryShare(text: String(repeating: "A", count: 5000)) }
        #expect(throws: RecoveryError.self) { try RecoveryShare(text: "not base64!") }
    }
}
