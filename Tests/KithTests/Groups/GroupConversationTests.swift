@testable import Kith
import KithAccountFixtures
import KithFeed
import KithGroups
import KithIdentity
import KithStore
import Testing

/// Groups through the facade: KeyPackages over direct sessions, Welcomes as direct messages, commits and messages as
/// entries of the members' feeds, carried here by feed export/import (what a sync moves).
@Suite struct GroupConversationTests {
    /// Alice knows Bob and Carol; Bob and Carol do not know each other.
    static func people() async throws -> (alice: Account, bob: Account, carol: Account) {
        let (alice, bob) = try await MetAccounts.met()
        let carol = try MetAccounts.account(0xC0)
        try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        return (alice, bob, carol)
    }

    /// Carries `from`'s feed to `to` (what a sync would move).
    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importKnown(lines: try await from.feed.export())
    }

    /// A group "trip" of Alice (committer), Bob and Carol, everyone joined.
    static func trio() async throws -> (Account, Account, Account, GroupID) {
        let (alice, bob, carol) = try await people()
        try await bob.groups.shareKeyPackage(with: alice.feedID)
        try await carol.groups.shareKeyPackage(with: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await Self.deliver(carol, to: alice)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
        let group = try await alice.groups.create(name: "trip")
        let added = try await alice.groups.add(group.id, contacts: [bob.feedID, carol.feedID])
        #expect(added.members.count == 3 && added.epoch == 1 && added.isCommitter)
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(alice, to: carol)
        #expect(try await bob.groups.summary(group.id).status == .active)
        #expect(try await carol.groups.summary(group.id).members.count == 3)
        return (alice, bob, carol, group.id)
    }

    static func texts(_ messages: [StoredMessage]) -> [String] {
        messages.compactMap { if case .post(let post)? = $0.content { post.body } else { nil } }
    }

    @Test func threeMembersTalkThroughTheirFeeds() async throws {
        let (alice, bob, carol, group) = try await Self.trio()
        try await alice.groups.send(group, text: "saturday?")
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(alice, to: carol)
        try await bob.groups.send(group, text: "yes")
        // Carol is not Bob's contact: she follows his feed because he is a member.
        try await Self.deliver(bob, to: carol)
        try await Self.deliver(bob, to: alice)
        #expect(Self.texts(try await carol.groups.messages(group)) == ["saturday?", "yes"])
        #expect(Self.texts(try await alice.groups.messages(group)) == ["saturday?", "yes"])
        #expect(Self.texts(try await bob.groups.messages(group)) == ["saturday?", "yes"])
    }

    @Test func aRemovedMemberReadsNothingMore() async throws {
        let (alice, bob, carol, group) = try await Self.trio()
        let after = try await alice.groups.remove(group, member: carol.feedID)
        #expect(after.members.count == 2 && after.epoch == 2)
        try await alice.groups.send(group, text: "without carol")
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(alice, to: carol)
        #expect(try await carol.groups.summary(group).status == .removed)
        #expect(Self.texts(try await carol.groups.messages(group)).isEmpty)
        #expect(Self.texts(try await bob.groups.messages(group)) == ["without carol"])
        await #expect(throws: KithError.self) { try await carol.groups.send(group, text: "still here?") }
    }

    @Test func aMembersUpdateAndDepartureAreCommittedByTheCommitter() async throws {
        let (alice, bob, carol, group) = try await Self.trio()
        try await bob.groups.updateKeys(group)
        try await carol.groups.leave(group)
        // Alice gets Bob's proposal first and commits it at once (epoch 2); Carol's proposal of epoch 1 is then stale.
        try await Self.deliver(bob, to: alice)
        try await Self.deliver(carol, to: alice)
        #expect(try await alice.groups.summary(group).epoch == 2)
        #expect(try await alice.groups.summary(group).members.count == 3)
        try await Self.deliver(alice, to: bob)
        // Carol gets Alice's commit before Bob's proposal it names: the commit waits for Bob's feed.
        try await Self.deliver(alice, to: carol)
        #expect(try await carol.groups.summary(group).epoch == 1)
        try await Self.deliver(bob, to: carol)
        #expect(try await carol.groups.summary(group).epoch == 2)
        #expect(try await bob.groups.summary(group).epoch == 2)
        // Carol saw that epoch 2 did not apply her departure and proposed it again; Alice commits it.
        try await Self.deliver(carol, to: alice)
        let state = try await alice.groups.summary(group)
        #expect(state.epoch == 3 && state.members.count == 2)
        try await Self.deliver(carol, to: bob)
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(alice, to: carol)
        #expect(try await bob.groups.summary(group).epoch == 3)
        #expect(try await carol.groups.summary(group).status == .left)
    }

    @Test func messagesOfAFutureEpochWaitForTheirCommit() async throws {
        let (alice, bob, carol, group) = try await Self.trio()
        try await alice.groups.updateKeys(group)  // epoch 2, a commit in Alice's feed
        try await Self.deliver(alice, to: bob)
        try await bob.groups.send(group, text: "epoch two")
        // Carol gets Bob's message (epoch 2) before Alice's commit: held, then opened.
        try await Self.deliver(bob, to: carol)
        #expect(Self.texts(try await carol.groups.messages(group)).isEmpty)
        // Held once: later passes do not read it again while the group is at epoch 1 (a flood of far-future messages
        // would otherwise be re-read by every import).
        #expect(try carol.store.readGroupState { try $0.groupsWithInbox() }.isEmpty)
        #expect(try carol.store.readGroupState { try $0.inbox(of: group.string, atEpoch: 1) }.isEmpty)
        #expect(try carol.store.readGroupState { try $0.inbox(of: group.string) }.count == 1)
        try await Self.deliver(alice, to: carol)
        #expect(Self.texts(try await carol.groups.messages(group)) == ["epoch two"])
        #expect(try carol.store.readGroupState { try $0.inbox(of: group.string) }.isEmpty)
    }

    /// A tree too large for a Welcome (here: any tree, the limit lowered) travels as an encrypted blob named by an
    /// `mls_group_tree` direct message; the joiner waits for the blob, then joins.
    @Test func aTreeTooLargeForTheWelcomeTravelsApart() async throws {
        let (creator, bob, carol) = try await Self.people()
        let alice = try creator.withTestingHooks(AccountTestingHooks(groupTreeInBandLimit: 0))
        try await bob.groups.shareKeyPackage(with: alice.feedID)
        try await carol.groups.shareKeyPackage(with: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await Self.deliver(carol, to: alice)
        let group = try await alice.groups.create(name: "big")
        _ = try await alice.groups.add(group.id, contacts: [bob.feedID, carol.feedID])
        #expect(try await alice.publishing.exportBlobs().count == 1)
        // The feed alone: the Welcome waits for the tree.
        try await Self.deliver(alice, to: bob)
        #expect((try? await bob.groups.summary(group.id)) == nil)
        #expect(try await bob.groups.process().held >= 1)
        // The blob arrives (a sync's blob phase asks for it: it is referenced by readable content).
        #expect(try bob.store.missingReferencedBlobs().count == 1)
        for blob in try await alice.publishing.exportBlobs() { try await bob.publishing.importBlob(blob) }
        try await bob.groups.process()
        #expect(try await bob.groups.summary(group.id).members.count == 3)
        // Carol gets both at once and joins in one pass; members talk as in any group.
        try await Self.deliver(alice, to: carol)
        for blob in try await alice.publishing.exportBlobs() { try await carol.publishing.importBlob(blob) }
        try await carol.groups.process()
        try await bob.groups.send(group.id, text: "joined apart")
        try await Self.deliver(bob, to: carol)
        #expect(Self.texts(try await carol.groups.messages(group.id)) == ["joined apart"])
    }

    @Test func onlyTheCommitterAddsAndTheCommitterCannotSimplyLeave() async throws {
        let (alice, bob, carol, group) = try await Self.trio()
        await #expect(throws: KithError.self) { try await bob.groups.remove(group, member: carol.feedID) }
        await #expect(throws: KithError.self) { try await alice.groups.leave(group) }
        await #expect(throws: KithError.self) { try await alice.groups.add(group, contacts: [bob.feedID]) }
    }

    @Test func addingAContactWithoutAKeyPackageSaysWhatToDo() async throws {
        let (alice, bob, _) = try await Self.people()
        let group = try await alice.groups.create(name: "solo")
        do {
            try await alice.groups.add(group.id, contacts: [bob.feedID])
            Issue.record("added without a KeyPackage")
        } catch {
            #expect(error.description.contains("kith group keys share"))
        }
        #expect(try await alice.groups.summary(group.id).epoch == 0)
    }
}

/// Handing the committer role over.
@Suite struct GroupHandoverTests {
    @Test func theCommitterHandsOverAndThenLeaves() async throws {
        let (alice, bob, carol, group) = try await GroupConversationTests.trio()
        let handed = try await alice.groups.handOver(group, to: bob.feedID)
        #expect(handed.committer == bob.feedID && !handed.isCommitter)
        try await GroupConversationTests.deliver(alice, to: bob)
        try await GroupConversationTests.deliver(alice, to: carol)
        #expect(try await bob.groups.summary(group).isCommitter)
        // Alice now proposes her departure like any member; Bob commits it.
        try await alice.groups.leave(group)
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(try await bob.groups.summary(group).members.count == 2)
        try await GroupConversationTests.deliver(bob, to: alice)
        try await GroupConversationTests.deliver(alice, to: carol)
        try await GroupConversationTests.deliver(bob, to: carol)
        #expect(try await alice.groups.summary(group).status == .left)
        #expect(try await carol.groups.summary(group).members.count == 2)
        // A commit from Alice (no longer the committer) would be refused by everyone; Bob's work.
        try await bob.groups.send(group, text: "my group now")
        try await GroupConversationTests.deliver(bob, to: carol)
        #expect(GroupConversationTests.texts(try await carol.groups.messages(group)) == ["my group now"])
    }
}
