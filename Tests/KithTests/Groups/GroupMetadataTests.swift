import Foundation
import Kith
import KithAccountFixtures
import KithFeed
import KithGroups
import KithIdentity
import KithStore
import Synchronization
import Testing

/// Convos conversation metadata through the feeds: the creator's tag, member profiles, the explosion time.
@Suite struct GroupMetadataTests {
    @Test func membersUpdateTheirOwnProfilesWithoutClobberingOthersOrTheTag() async throws {
        let (alice, bob, carol, group) = try await GroupConversationTests.trio()
        let before = try #require(try await alice.groups.summary(group).metadata)
        #expect(before.inviteTag != nil)
        // Bob and Carol change their profiles concurrently (both from the same epoch).
        try await bob.groups.setProfile(group, displayName: "Bobby")
        try await carol.groups.setProfile(group, displayName: "Caro")
        try await GroupConversationTests.deliver(bob, to: alice)
        try await GroupConversationTests.deliver(carol, to: alice)
        let after = try #require(try await alice.groups.summary(group).metadata)
        #expect(after.profile(of: bob.feedID)?.name == "Bobby")
        #expect(after.profile(of: carol.feedID)?.name == "Caro")
        #expect(after.tag == before.tag && after.expiresAtUnix == before.expiresAtUnix)
        // Everyone sees the merged record after Alice's commit.
        try await GroupConversationTests.deliver(alice, to: bob)
        try await GroupConversationTests.deliver(carol, to: bob)
        let bobView = try #require(try await bob.groups.summary(group).metadata)
        #expect(bobView == after)
        #expect(try await bob.groups.summary(group).name == "trip")
    }

    @Test func theCommitterSetsItsOwnProfileAtOnce() async throws {
        let (alice, bob, _, group) = try await GroupConversationTests.trio()
        try await alice.groups.setProfile(group, displayName: "Al")
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(try await bob.groups.summary(group).profileName(of: alice.feedID) == "Al")
    }

    /// An account whose clock the test moves.
    final class Clock: Sendable {
        let now = Mutex<Int64>(MetAccounts.now)
        func advance(by seconds: Int64) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Int64 { { [self] in self.now.withLock { $0 } } }
    }

    @Test func anOfflineMemberExplodesByItsOwnClockOnItsNextPass() async throws {
        let clock = Clock()
        let (alice, bob, id, _) = try await GroupExplosionReadTests.conversation(clock: clock, text: "gone in an hour")
        let group = try await bob.groups.summary(id)
        #expect(group.explodeAt == MetAccounts.now + 3600)
        // Two hours later Bob's device starts again (no message from Alice): it explodes on its own.
        clock.advance(by: 7200)
        let report = try await bob.groups.process()
        #expect(report.ended == [group.id])
        #expect(try await bob.groups.summary(group.id).status == .exploded)
        #expect(try await bob.groups.messages(group.id).allSatisfy { $0.content == nil })
        await #expect(throws: KithError.self) { try await bob.groups.send(group.id, text: "too late") }
        // Alice explodes too, and what she sent before (in her feed) is not read by Bob anymore.
        _ = try await alice.groups.process()
        #expect(try await alice.groups.summary(group.id).status == .exploded)
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(try await bob.groups.messages(group.id).allSatisfy { $0.content == nil })
    }

    @Test func anEarlyExplosionReachesMembersWhoseClocksAreBehind() async throws {
        let (alice, bob, carol, group) = try await GroupConversationTests.trio()
        try await alice.groups.send(group, text: "soon gone")
        try await GroupConversationTests.deliver(alice, to: bob)
        try await GroupConversationTests.deliver(alice, to: carol)
        try await alice.groups.explode(group)
        try await GroupConversationTests.deliver(alice, to: bob)
        try await GroupConversationTests.deliver(alice, to: carol)
        for member in [alice, bob, carol] {
            #expect(try await member.groups.summary(group).status == .exploded)
            #expect(try await member.groups.messages(group).allSatisfy { $0.content == nil })
        }
    }
}

/// KeyPackages handed over in person.
@Suite struct KeyPackageHandoverTests {
    @Test func aKeyPackageHandedOverInPersonAddsTheContact() async throws {
        let (alice, bob, carol) = try await GroupConversationTests.people()
        let text = try await bob.groups.keyPackageHandover(for: alice.feedID)
        // Carol cannot pass Bob's KeyPackage off as hers.
        await #expect(throws: KithError.self) { try await alice.groups.importKeyPackage(text, from: carol.feedID) }
        await #expect(throws: KithError.self) { try await alice.groups.importKeyPackage("not a key package", from: bob.feedID) }
        try await alice.groups.importKeyPackage(text, from: bob.feedID)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
        let group = try await alice.groups.create(name: "in person")
        try await alice.groups.add(group.id, contacts: [bob.feedID])
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(try await bob.groups.summary(group.id).status == .active)
    }
}
