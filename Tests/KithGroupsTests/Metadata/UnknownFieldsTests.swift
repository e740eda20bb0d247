import Testing

@testable import KithGroups

/// A Kith member must never drop what a Convos member wrote: fields Kith does not model, and fields no schema here
/// knows, come back out exactly.
@Suite struct UnknownFieldsTests {
    typealias Support = MetadataTestSupport

    private static let bobID = [UInt8](repeating: 0xB0, count: 32)
    private static let encryptedImage =
        ProtoBytes.field(1, string: "https://s3.example/e.bin") + ProtoBytes.field(2, bytes: [UInt8](repeating: 1, count: 32))
        + ProtoBytes.field(3, bytes: [UInt8](repeating: 2, count: 12))

    /// A Convos record in canonical field order: every field of the schema, then fields 9 and 10 (convos-cli's
    /// participationMode and spaceUrl, unknown to this schema), and in Bob's profile an unknown field 6.
    static let convosRecord: [UInt8] =
        ProtoBytes.field(1, string: "Tag0123456")
        + ProtoBytes.profile(
            id: bobID, name: "Bob", image: "https://example.org/b.png",
            extra: ProtoBytes.field(4, bytes: encryptedImage) + ProtoBytes.field(5, string: "{\"grants\":[]}")
                + ProtoBytes.field(6, varint: 7))
        + ProtoBytes.field(3, sfixed64: 1_900_000_000)
        + ProtoBytes.field(4, bytes: [UInt8](repeating: 0x33, count: 32))
        + ProtoBytes.field(5, bytes: encryptedImage)
        + ProtoBytes.field(6, string: "🎭")
        + ProtoBytes.field(8, bytes: ProtoBytes.field(1, bytes: [9, 9, 9]))
        + ProtoBytes.field(9, varint: 2)
        + ProtoBytes.field(10, string: "https://space.example/x")

    @Test func anUntouchedRecordIsWrittenBackByteForByte() throws {
        let metadata = try ConversationMetadata(appData: Support.appData(protobuf: Self.convosRecord))
        #expect(metadata.tag == "Tag0123456")
        #expect(metadata.profile(of: Support.bob)?.name == "Bob")
        #expect(metadata.emoji == "🎭")
        #expect(try Support.protobuf(of: metadata.encodedAppData()) == Self.convosRecord)
    }

    @Test func editsKeepEveryFieldKithDoesNotModel() throws {
        let metadata = try ConversationMetadata(appData: Support.appData(protobuf: Self.convosRecord))
        let edited = try metadata
            .updatingProfile(of: Support.alice, name: "Alice", image: nil)
            .updatingProfile(of: Support.bob, name: "Bobby", image: nil)
            .settingEmoji("🎈")
            .settingExpiry(2_000_000_000)
        let protobuf = try Support.protobuf(of: edited.encodedAppData())
        let expectedBob = ProtoBytes.profile(
            id: Self.bobID, name: "Bobby",
            extra: ProtoBytes.field(4, bytes: Self.encryptedImage) + ProtoBytes.field(5, string: "{\"grants\":[]}")
                + ProtoBytes.field(6, varint: 7))
        #expect(protobuf.containsRun(expectedBob))
        #expect(protobuf.containsRun(ProtoBytes.field(4, bytes: [UInt8](repeating: 0x33, count: 32))))
        #expect(protobuf.containsRun(ProtoBytes.field(5, bytes: Self.encryptedImage)))
        #expect(protobuf.containsRun(ProtoBytes.field(8, bytes: ProtoBytes.field(1, bytes: [9, 9, 9]))))
        #expect(protobuf.containsRun(ProtoBytes.field(9, varint: 2) + ProtoBytes.field(10, string: "https://space.example/x")))
        #expect(protobuf.containsRun(ProtoBytes.field(3, sfixed64: 2_000_000_000)))

        let reread = try ConversationMetadata(appData: edited.encodedAppData())
        #expect(reread == edited)
        #expect(reread.profiles.map(\.name) == ["Bobby", "Alice"])
    }

    @Test func aMemberUpdateCarriesItsOwnUnmodelledFieldsButNoOneElses() throws {
        let current = try ConversationMetadata(appData: Support.appData(protobuf: Self.convosRecord))
        // Bob's client rewrote the record from scratch: his entry now has a new unknown field 7 and no image ref.
        let bobsProposal = try ConversationMetadata(
            appData: Support.appData(
                protobuf: ProtoBytes.profile(id: Self.bobID, name: "Bob", extra: ProtoBytes.field(7, varint: 1))))
        let merged = try current.applyingUpdate(bobsProposal, from: Support.bob)
        let protobuf = try Support.protobuf(of: merged.encodedAppData())
        #expect(protobuf.containsRun(ProtoBytes.profile(id: Self.bobID, name: "Bob", extra: ProtoBytes.field(7, varint: 1))))
        // The group-level fields Bob's record lacked are all still there.
        #expect(protobuf.containsRun(ProtoBytes.field(8, bytes: ProtoBytes.field(1, bytes: [9, 9, 9]))))
        #expect(protobuf.containsRun(ProtoBytes.field(9, varint: 2)))
        #expect(merged.tag == "Tag0123456" && merged.emoji == "🎭" && merged.expiresAtUnix == 1_900_000_000)
    }
}
