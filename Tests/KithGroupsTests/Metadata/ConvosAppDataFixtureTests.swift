import Foundation
import KithIdentity
import KithTestSupport
import Testing

@testable import KithGroups

/// The fixture of Convos' `parsesZlibWrappedAppData` test (Tests/Vectors/convos/, origin in SOURCES.md).
@Suite struct ConvosAppDataFixtureTests {
    private func fixture() throws -> String {
        let data = try TestPaths.officialVector("convos/appdata-zlib-fixture.txt")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func readsTheZlibWrappedFixture() throws {
        let text = try fixture()
        let frame = try MetadataTestSupport.frame(of: text)
        #expect(Array(frame[0...6]) == [0x1F, 0, 0, 0, 0x9F, 0x78, 0x9C])

        let metadata = try ConversationMetadata(appData: text)
        #expect(metadata.tag == "zlibFixtureTag")
        #expect(metadata.inviteTag == nil)  // 14 characters: read as written, not a strict tag
        #expect(metadata.profiles.count == 2)
        #expect(metadata.profiles.first?.name == "Agent")
        #expect(metadata.profiles.first?.image == "https://example.com/agent-avatar-image.png")
        #expect(metadata.profiles.last?.name == "SecondMember")
        #expect(metadata.profiles.last?.image == nil)
        #expect(metadata.emoji == "🎭")
        #expect(metadata.expiresAtUnix == nil)
        let first = try FeedID(rawBytes: [0xAA] + [UInt8](repeating: 0, count: 31))
        let second = try FeedID(rawBytes: [0xBB] + [UInt8](repeating: 0, count: 31))
        #expect(metadata.profiles.map(\.feedID) == [first, second])
    }

    @Test func rewritesTheFixtureAsRawDeflateWithTheSameContent() throws {
        let original = try ConversationMetadata(appData: fixture())
        let rewritten = original.encodedAppData()
        let frame = try MetadataTestSupport.frame(of: rewritten)
        #expect(frame.first == AppDataFrame.compressionMarker)
        #expect(frame[5] != 0x78)
        #expect(Array(frame[1...4]) == [0, 0, 0, 0x9F])  // same 159-byte protobuf
        #expect(try ConversationMetadata(appData: rewritten) == original)
    }

    @Test func aKithMemberEditingTheFixtureKeepsTheConvosProfiles() throws {
        let original = try ConversationMetadata(appData: fixture())
        let kith = MetadataTestSupport.alice
        let edited = try original.updatingProfile(of: kith, name: "Alice", image: nil)
        #expect(edited.profiles.count == 3)
        #expect(Array(edited.profiles.prefix(2)) == original.profiles)
        #expect(edited.tag == "zlibFixtureTag")
        #expect(edited.emoji == "🎭")
    }
}
