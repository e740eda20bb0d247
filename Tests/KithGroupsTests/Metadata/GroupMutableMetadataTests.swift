import KithMLS
import Testing

@testable import KithGroups

@Suite struct GroupMutableMetadataTests {
    typealias Support = MetadataTestSupport

    /// A map<string,string> entry of field 1.
    private static func attribute(_ key: String, _ value: String) -> [UInt8] {
        ProtoBytes.field(1, bytes: ProtoBytes.field(1, string: key) + ProtoBytes.field(2, string: value))
    }

    private static func inboxes(_ field: Int, _ ids: [String]) -> [UInt8] {
        ProtoBytes.field(field, bytes: Array(ids.map { ProtoBytes.field(1, string: $0) }.joined()))
    }

    /// libxmtp's extension as another client wrote it: name and description, admin lists, and an unknown field 9.
    private static let xmtpExtensionData: [UInt8] =
        attribute("group_name", "Picnic") + attribute("description", "Saturday")
        + inboxes(2, ["admin-inbox"]) + inboxes(3, ["creator-inbox", "second-super"])
        + ProtoBytes.field(9, varint: 5)

    @Test func theExtensionTypeIsXMTPs() {
        #expect(ExtensionType.xmtpGroupMutableMetadata.rawValue == 0xFF00)
        #expect(GroupMutableMetadata.extensionType == .xmtpGroupMutableMetadata)
        #expect(GroupMutableMetadata.appDataAttribute == "app_data")
    }

    @Test func buildsAndReadsTheExtensionOnAnEmptyGroup() throws {
        let metadata = try Support.threeMembers()
        let ext = try metadata.groupContextExtension(updating: [])
        #expect(ext.type.rawValue == 0xFF00)
        // Only the app_data attribute.
        #expect(ext.data == Self.attribute("app_data", metadata.encodedAppData()))
        #expect(try ConversationMetadata(groupContextExtensions: [ext]) == metadata)
    }

    @Test func keepsOtherAttributesAdminListsAndUnknownFields() throws {
        let current = Extension(type: .xmtpGroupMutableMetadata, data: Self.xmtpExtensionData)
        let metadata = try Support.threeMembers()
        let ext = try metadata.groupContextExtension(updating: [current])

        let container = try #require(try GroupMutableMetadata(extensions: [ext]))
        #expect(container.attributes == [
            "group_name": "Picnic", "description": "Saturday", "app_data": metadata.encodedAppData(),
        ])
        #expect(container.adminInboxIDs == ["admin-inbox"])
        #expect(container.superAdminInboxIDs == ["creator-inbox", "second-super"])
        #expect(ext.data.containsRun(ProtoBytes.field(9, varint: 5)))
        #expect(try ConversationMetadata(groupContextExtensions: [ext]) == metadata)
    }

    @Test func encodingIsDeterministic() throws {
        let current = Extension(type: .xmtpGroupMutableMetadata, data: Self.xmtpExtensionData)
        let metadata = try Support.threeMembers()
        let first = try metadata.groupContextExtension(updating: [current])
        let second = try metadata.groupContextExtension(updating: [first])
        #expect(first == second)
        // Entries sorted by key: app_data, description, group_name.
        #expect(first.data.starts(with: Self.attribute("app_data", metadata.encodedAppData())))
    }

    @Test func placedReplacesInPlaceAndKeepsTheOtherExtensions() throws {
        let policy = Extension(type: ExtensionType(rawValue: 0xFF10), data: [1, 2, 3])
        let current = Extension(type: .xmtpGroupMutableMetadata, data: Self.xmtpExtensionData)
        let other = Extension(type: ExtensionType(rawValue: 0xF000), data: [4])
        let metadata = try Support.threeMembers()

        let placed = try metadata.placed(in: [policy, current, other])
        #expect(placed.map(\.type.rawValue) == [0xFF10, 0xFF00, 0xF000])
        #expect(placed[0] == policy && placed[2] == other)
        #expect(try ConversationMetadata(groupContextExtensions: placed) == metadata)

        let appended = try metadata.placed(in: [policy])
        #expect(appended.map(\.type.rawValue) == [0xFF10, 0xFF00])
    }

    @Test func aMemberUpdateRoundTripsThroughTheExtension() throws {
        let base = try Support.threeMembers()
        let groupContext = try base.placed(in: [Extension(type: .xmtpGroupMutableMetadata, data: Self.xmtpExtensionData)])
        // Bob proposes a GroupContextExtensions change; the committer merges only Bob's entry.
        let proposal = try base.updatingProfile(of: Support.bob, name: "Bob 2", image: nil).placed(in: groupContext)
        let proposed = try #require(try ConversationMetadata(groupContextExtensions: proposal))
        let current = try #require(try ConversationMetadata(groupContextExtensions: groupContext))
        let next = try current.applyingUpdate(proposed, from: Support.bob).placed(in: groupContext)
        let result = try #require(try ConversationMetadata(groupContextExtensions: next))
        #expect(result.profile(of: Support.bob)?.name == "Bob 2")
        #expect(try GroupMutableMetadata(extensions: next)?.attributes["group_name"] == "Picnic")
    }

    @Test func readingWithoutMetadataGivesNil() throws {
        #expect(try ConversationMetadata(groupContextExtensions: []) == nil)
        let noAppData = Extension(type: .xmtpGroupMutableMetadata, data: Self.xmtpExtensionData)
        #expect(try ConversationMetadata(groupContextExtensions: [noAppData]) == nil)
    }

    @Test func malformedExtensionsAreRefused() throws {
        let garbage = Extension(type: .xmtpGroupMutableMetadata, data: [0x0A, 0x05, 0x01])
        #expect {
            try ConversationMetadata(groupContextExtensions: [garbage])
        } throws: { error in
            if case .malformedProtobuf = error as? ConversationMetadataError { true } else { false }
        }
        #expect(throws: ConversationMetadataError.self) {
            try Support.threeMembers().groupContextExtension(updating: [garbage])
        }
        let huge = Extension(
            type: .xmtpGroupMutableMetadata, data: Self.attribute("app_data", String(repeating: "A", count: 8193)))
        #expect(throws: ConversationMetadataError.appDataTooLarge(bytes: 8193, limit: 8192)) {
            try ConversationMetadata(groupContextExtensions: [huge])
        }
    }
}
