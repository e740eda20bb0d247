import KithCanonical
import KithConvos
import Testing

@testable import KithGroups

@Suite struct AppDataRoundTripTests {
    typealias Support = MetadataTestSupport

    @Test func roundTripsEveryModelledField() throws {
        let metadata = try Support.threeMembers()
        let decoded = try ConversationMetadata(appData: metadata.encodedAppData())
        #expect(decoded == metadata)
        #expect(decoded.tag == "Tag0123456")
        #expect(decoded.inviteTag == (try ConversationTag("Tag0123456")))
        #expect(decoded.profiles.map(\.name) == ["Alice", "Bob", "Carol"])
        #expect(decoded.profile(of: Support.alice)?.image == "https://example.org/a.png")
        #expect(decoded.profile(of: Support.bob)?.image == nil)
        #expect(decoded.expiresAtUnix == 1_900_000_000)
        #expect(decoded.emoji == "🎈")
    }

    @Test func absentOptionalsStayAbsent() throws {
        let metadata = try ConversationMetadata(tag: ConversationTag("abcdeABCDE"))
        let decoded = try ConversationMetadata(appData: metadata.encodedAppData())
        #expect(decoded.expiresAtUnix == nil)
        #expect(decoded.emoji == nil)
        #expect(decoded.profiles.isEmpty)
        // tag field only: 0A 0A "abcdeABCDE"
        #expect(try Support.protobuf(of: metadata.encodedAppData()) == ProtoBytes.field(1, string: "abcdeABCDE"))
    }

    @Test func emptyTextIsTheEmptyRecord() throws {
        let empty = try ConversationMetadata(appData: "")
        #expect(empty.tag.isEmpty)
        #expect(empty.profiles.isEmpty)
        #expect(empty.inviteTag == nil)
        #expect(empty.encodedAppData() == "")
    }

    @Test func negativeAndExtremeExpiriesSurvive() throws {
        for value in [Int64.min, -1, 0, Int64.max] {
            let metadata = try ConversationMetadata(tag: ConversationTag.random(), expiresAtUnix: value)
            #expect(try ConversationMetadata(appData: metadata.encodedAppData()).expiresAtUnix == value)
        }
    }

    @Test func expiryIsSfixed64OnTheWire() throws {
        let metadata = try ConversationMetadata(tag: ConversationTag("abcdeABCDE"), expiresAtUnix: 0x0102_0304_0506_0708)
        let protobuf = try Support.protobuf(of: metadata.encodedAppData())
        #expect(protobuf.containsRun([0x19, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]))
    }

    @Test func largeRecordsAreCompressedAndRoundTrip() throws {
        let profiles = (0..<40).map { index in
            MemberProfile(
                feedID: Support.member(UInt8(index)), name: "Member number \(index)",
                image: "https://example.org/avatars/member-\(index).png")
        }
        let metadata = try ConversationMetadata(tag: ConversationTag.random(), profiles: profiles, expiresAtUnix: 42)
        let frame = try Support.frame(of: metadata.encodedAppData())
        #expect(frame.first == AppDataFrame.compressionMarker)
        #expect(try ConversationMetadata(appData: metadata.encodedAppData()) == metadata)
        #expect(metadata.encodedAppData().utf8.count <= MetadataLimits.maxEncodedBytes)
    }

    @Test func encodingIsBase64URLWithoutPadding() throws {
        for count in 0..<6 {
            let metadata = try ConversationMetadata(
                tag: ConversationTag.random(), profiles: [MemberProfile(feedID: Support.alice, name: String(repeating: "x", count: count))])
            let text = metadata.encodedAppData()
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        }
    }
}
