import KithConvos
import Testing

@testable import KithGroups

@Suite struct MetadataMergeTests {
    typealias Support = MetadataTestSupport

    @Test func updatingAProfileChangesOnlyThatEntry() throws {
        let base = try Support.threeMembers()
        let updated = try base.updatingProfile(of: Support.bob, name: "Robert", image: "https://example.org/b.png")
        #expect(updated.profiles.map(\.feedID) == base.profiles.map(\.feedID))
        #expect(updated.profile(of: Support.bob)?.name == "Robert")
        #expect(updated.profile(of: Support.bob)?.image == "https://example.org/b.png")
        #expect(updated.profile(of: Support.alice) == base.profile(of: Support.alice))
        #expect(updated.profile(of: Support.carol) == base.profile(of: Support.carol))
        #expect(updated.tag == base.tag && updated.expiresAtUnix == base.expiresAtUnix && updated.emoji == base.emoji)
    }

    @Test func aNewMemberIsAppended() throws {
        let dave = Support.member(0xD0)
        let updated = try Support.threeMembers().updatingProfile(of: dave, name: "Dave", image: nil)
        #expect(updated.profiles.last == MemberProfile(feedID: dave, name: "Dave"))
        #expect(updated.profiles.count == 4)
    }

    @Test func concurrentOwnUpdatesAreBothKeptInEitherOrder() throws {
        let base = try Support.threeMembers()
        let fromAlice = try base.updatingProfile(of: Support.alice, name: "Alice 2", image: nil)
        let fromBob = try base.updatingProfile(of: Support.bob, name: "Bob 2", image: "https://example.org/b2.png")

        let aliceFirst = try base.applyingUpdate(fromAlice, from: Support.alice).applyingUpdate(fromBob, from: Support.bob)
        let bobFirst = try base.applyingUpdate(fromBob, from: Support.bob).applyingUpdate(fromAlice, from: Support.alice)

        #expect(aliceFirst == bobFirst)
        #expect(aliceFirst.profile(of: Support.alice)?.name == "Alice 2")
        #expect(aliceFirst.profile(of: Support.alice)?.image == nil)
        #expect(aliceFirst.profile(of: Support.bob)?.name == "Bob 2")
        #expect(aliceFirst.profile(of: Support.carol) == base.profile(of: Support.carol))
        #expect(aliceFirst.tag == base.tag)
        #expect(aliceFirst.expiresAtUnix == base.expiresAtUnix)
        #expect(aliceFirst.emoji == base.emoji)
    }

    @Test func aMemberUpdateCannotChangeAnythingButItsOwnProfile() throws {
        let base = try Support.threeMembers()
        // Bob proposes: his own new name, plus a new tag, no expiry, another emoji, and Carol renamed and Alice gone.
        let hostile = try ConversationMetadata(
            tag: ConversationTag("EvilTag000"),
            profiles: [MemberProfile(feedID: Support.bob, name: "Bob 3"), MemberProfile(feedID: Support.carol, name: "Mallory")],
            expiresAtUnix: nil, emoji: "💣")
        let merged = try base.applyingUpdate(hostile, from: Support.bob)
        #expect(merged.tag == base.tag)
        #expect(merged.expiresAtUnix == base.expiresAtUnix)
        #expect(merged.emoji == base.emoji)
        #expect(merged.profile(of: Support.alice) == base.profile(of: Support.alice))
        #expect(merged.profile(of: Support.carol)?.name == "Carol")
        #expect(merged.profile(of: Support.bob)?.name == "Bob 3")
        #expect(merged.profiles.map(\.feedID) == base.profiles.map(\.feedID))
    }

    @Test func aMemberUpdateThatWipesTheTagKeepsIt() throws {
        let base = try Support.threeMembers()
        let wiped = try ConversationMetadata(
            appData: MetadataTestSupport.appData(
                protobuf: ProtoBytes.profile(id: [UInt8](repeating: 0xB0, count: 32), name: "Bob 4")))
        #expect(wiped.tag.isEmpty)
        let merged = try base.applyingUpdate(wiped, from: Support.bob)
        #expect(merged.tag == base.tag)
        #expect(merged.profile(of: Support.bob)?.name == "Bob 4")
    }

    @Test func aMemberMayRemoveOnlyItsOwnProfile() throws {
        let base = try Support.threeMembers()
        let withoutCarol = try base.removingProfile(of: Support.carol)
        #expect(try base.applyingUpdate(withoutCarol, from: Support.carol).profile(of: Support.carol) == nil)
        #expect(try base.applyingUpdate(withoutCarol, from: Support.bob) == base)
    }

    @Test func anUnchangedProposalChangesNothing() throws {
        let base = try Support.threeMembers()
        #expect(try base.applyingUpdate(base, from: Support.alice) == base)
    }

    @Test func aMemberUpdateOverItsBoundsIsRefused() throws {
        let base = try Support.threeMembers()
        let longName = String(repeating: "n", count: MetadataLimits.maxNameBytes + 1)
        // Another client may write it; the committer still refuses to take it from a member update.
        let proposed = try ConversationMetadata(
            appData: Support.appData(protobuf: ProtoBytes.profile(id: [UInt8](repeating: 0xB0, count: 32), name: longName)))
        #expect(throws: ConversationMetadataError.fieldTooLong(
            field: "profile name", bytes: longName.utf8.count, limit: MetadataLimits.maxNameBytes)) {
            try base.applyingUpdate(proposed, from: Support.bob)
        }
        #expect(throws: ConversationMetadataError.self) {
            try base.updatingProfile(of: Support.bob, name: nil, image: String(repeating: "i", count: 2049))
        }
        #expect(throws: ConversationMetadataError.self) { try base.settingEmoji(String(repeating: "🎈", count: 17)) }
    }

    @Test func theRecordNeverGrowsPastEightKibibytes() throws {
        var metadata = try ConversationMetadata(tag: ConversationTag.random())
        var generator = SystemRandomNumberGenerator()
        var refusal: ConversationMetadataError?
        for seed in 0..<250 {
            // Random names do not compress: about 40 members fill 8 KiB.
            let name = String((0..<150).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator) ?? "a" })
            do {
                metadata = try metadata.updatingProfile(of: Support.member(UInt8(seed)), name: name, image: nil)
            } catch {
                refusal = error
                break
            }
        }
        guard case .appDataTooLarge(let bytes, let limit) = refusal else {
            Issue.record("expected appDataTooLarge, got \(String(describing: refusal))")
            return
        }
        #expect(bytes > limit && limit == 8192)
        #expect(metadata.encodedAppData().utf8.count <= 8192)
    }

    @Test func theCommitterMayNotClearTheTag() throws {
        let base = try Support.threeMembers()
        let cleared = try ConversationMetadata(appData: "")
        #expect(throws: ConversationMetadataError.tagCleared) { try base.replaced(by: cleared) }
        let rotated = try base.rotatingTag(to: ConversationTag("NewTag1234"))
        #expect(try base.replaced(by: rotated) == rotated)
        let sloppy = try ConversationMetadata(appData: Support.appData(protobuf: ProtoBytes.field(1, string: "bad tag")))
        #expect(throws: ConversationMetadataError.invalidTag("bad tag")) { try base.replaced(by: sloppy) }
        let later = try base.settingExpiry(2_000_000_000)
        #expect(try base.replaced(by: later).expiresAtUnix == 2_000_000_000)
    }

    @Test func aMissingTagIsHealedAndAPresentOneKept() throws {
        let empty = try ConversationMetadata(appData: "")
        let healed = try empty.ensuringTag { (try? ConversationTag("Healed0001")) ?? ConversationTag.random() }
        #expect(healed.tag == "Healed0001")
        let base = try Support.threeMembers()
        #expect(try base.ensuringTag() == base)
    }
}
