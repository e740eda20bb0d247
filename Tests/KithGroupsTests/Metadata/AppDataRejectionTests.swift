import KithCanonical
import KithConvos
import Testing

@testable import KithGroups

@Suite struct AppDataRejectionTests {
    typealias Support = MetadataTestSupport

    private func frameText(declared: UInt32, body: [UInt8]) -> String {
        Base64URL.encode(
            [0x1F] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: declared >> $0) } + body)
    }

    private func rejects(_ text: String, _ check: (ConversationMetadataError) -> Bool) {
        do {
            _ = try ConversationMetadata(appData: text)
            Issue.record("accepted \(text.prefix(40))")
        } catch {
            #expect(check(error), "unexpected \(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test func badBase64URL() {
        for text in ["abc$", "AA==", "A", "a+b/", "CgJhYg=", "Cg\n"] {
            rejects(text) { if case .invalidBase64URL = $0 { true } else { false } }
        }
    }

    @Test func truncatedHeader() {
        for frame: [UInt8] in [[0x1F], [0x1F, 0, 0], [0x1F, 0, 0, 0, 5]] {
            rejects(Base64URL.encode(frame)) { $0 == .truncatedFrame(bytes: frame.count) }
        }
    }

    @Test func declaredLengthOfZeroOrOverTenMebibytes() {
        let limit = MetadataLimits.maxDecompressedBytes
        rejects(frameText(declared: 0, body: [0x03, 0x00])) { $0 == .declaredLengthOutOfRange(declared: 0, limit: limit) }
        rejects(frameText(declared: 20 * 1024 * 1024, body: [UInt8](repeating: 0, count: 10))) {
            $0 == .declaredLengthOutOfRange(declared: 20 * 1024 * 1024, limit: limit)
        }
    }

    @Test func tenMebibyteCapHoldsEvenAtAnAcceptableRatio() throws {
        // 120 KiB of body declaring 11 MiB is under ratio 100, but over the 10 MiB cap (frame level: no 8 KiB text).
        var generator = SystemRandomNumberGenerator()
        let body = (0..<(120 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let declared = 11 * 1024 * 1024
        let frame = [0x1F] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt32(declared) >> $0) } + body
        #expect(throws: ConversationMetadataError.declaredLengthOutOfRange(
            declared: declared, limit: MetadataLimits.maxDecompressedBytes)) { try AppDataFrame.unpack(frame) }
    }

    @Test func decompressionBombBeyondRatioOneHundred() throws {
        let bomb = try #require(Deflate.compressRaw([UInt8](repeating: 0, count: 1_000_000)))
        #expect(bomb.count < 2000)
        rejects(frameText(declared: 1_000_000, body: bomb)) {
            $0 == .compressionRatioTooHigh(declared: 1_000_000, compressedBytes: bomb.count, limit: 100)
        }
    }

    @Test func bodyLongerThanDeclaredStopsAtTheDeclaredLength() throws {
        // The header claims 1,000 bytes (ratio fine); the body would inflate to a million. Inflation stops at 1,001.
        let bomb = try #require(Deflate.compressRaw([UInt8](repeating: 0, count: 1_000_000)))
        rejects(frameText(declared: 1000, body: bomb)) { $0 == .decompressedLengthMismatch(declared: 1000, actual: nil) }
    }

    @Test func bodyShorterThanDeclared() throws {
        let protobuf = ProtoBytes.field(1, string: String(repeating: "b", count: 197))
        #expect(protobuf.count == 200)
        let body = try #require(Deflate.compressRaw(protobuf))
        rejects(frameText(declared: 201, body: body)) { $0 == .decompressedLengthMismatch(declared: 201, actual: 200) }
        // One byte over still ends the stream in the spare byte, so it is measured; further over stops there.
        rejects(frameText(declared: 199, body: body)) { $0 == .decompressedLengthMismatch(declared: 199, actual: 200) }
        rejects(frameText(declared: 150, body: body)) { $0 == .decompressedLengthMismatch(declared: 150, actual: nil) }
    }

    @Test func garbageAndTruncatedCompressedBodies() throws {
        rejects(frameText(declared: 16, body: Array("definitely-not-deflate".utf8))) { $0 == .corruptCompressedBody }
        let protobuf = ProtoBytes.field(1, string: String(repeating: "c", count: 197))
        let body = try #require(Deflate.compressRaw(protobuf))
        rejects(frameText(declared: 200, body: Array(body.dropLast(3)))) { $0 == .corruptCompressedBody }
        rejects(frameText(declared: 200, body: body + [0x00])) { $0 == .corruptCompressedBody }
    }

    @Test func overEightKibibytes() {
        let text = String(repeating: "A", count: 8193)
        rejects(text) { $0 == .appDataTooLarge(bytes: 8193, limit: 8192) }
    }

    @Test func garbageProtobuf() {
        let cases: [[UInt8]] = [
            [0xFF, 0xFF, 0xFF],  // a varint that never ends
            [0x0A, 0x05, 0x61],  // a tag claiming 5 bytes, holding 1
            [0x0A, 0x02, 0xC3, 0x28],  // a tag that is not UTF-8
            [0x0F],  // wire type 7
            [0x12, 0x03, 0x0A, 0x09, 0x00],  // a profile whose id overruns the profile
        ]
        for protobuf in cases {
            rejects(Support.appData(protobuf: protobuf)) { if case .malformedProtobuf = $0 { true } else { false } }
        }
    }

    @Test func memberIDsMustBeThirtyTwoBytes() {
        for length in [0, 16, 31, 33] {
            let protobuf = ProtoBytes.profile(id: [UInt8](repeating: 7, count: length), name: "x")
            rejects(Support.appData(protobuf: protobuf)) { $0 == .invalidMemberID(bytes: length) }
        }
    }

    @Test func tooManyProfiles() throws {
        // 251 entries with mostly-zero ids compress enough to fit 8 KiB (at a ratio under 100), so the count rule is
        // what refuses them.
        let entries = (0..<251).map { ProtoBytes.profile(id: [UInt8(truncatingIfNeeded: $0)] + [UInt8](repeating: 0, count: 31)) }
        let protobuf = Array(entries.joined())
        let text = Base64URL.encode(AppDataFrame.pack(protobuf))
        #expect(text.utf8.count <= MetadataLimits.maxEncodedBytes)
        rejects(text) { $0 == .tooManyProfiles(count: 251, limit: 250) }

        let profiles = (0..<251).map { MemberProfile(feedID: Support.member(UInt8(truncatingIfNeeded: $0))) }
        #expect(throws: ConversationMetadataError.tooManyProfiles(count: 251, limit: 250)) {
            try ConversationMetadata(tag: ConversationTag.random(), profiles: profiles)
        }
    }

    @Test func mutatedEncodingsNeverCrash() throws {
        let valid = try Support.threeMembers().updatingProfile(
            of: Support.alice, name: String(repeating: "long name ", count: 20), image: nil)
        let frame = try Support.frame(of: valid.encodedAppData())
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for _ in 0..<2000 {
            var mutated = frame
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { mutated.removeLast(Int.random(in: 0...8, using: &generator)) }
            do {
                _ = try ConversationMetadata(appData: Base64URL.encode(mutated))
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }
}
