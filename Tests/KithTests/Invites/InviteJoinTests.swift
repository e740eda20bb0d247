@testable import Kith
import KithAccountFixtures
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore
import Testing

/// The invite join flow through the facade: invites made by a group's committer, join requests over direct
/// sessions, the creator's checks and commit, refusals that leave nothing behind, single use, revocation, explosion.
@Suite struct InviteJoinTests {
    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importKnown(lines: try await from.feed.export())
    }

    /// What a refused request must leave unchanged at the creator: the group's epoch and members.
    static func state(_ account: Account, _ group: GroupID) async throws -> (UInt64, [FeedID]) {
        let summary = try await account.groups.summary(group)
        return (summary.epoch, summary.members.sorted())
    }

    @Test func aSingleUseInviteAdmitsOnceAndIsThenRefused() async throws {
        let (alice, bob, carol) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "trip")
        let made = try await alice.invites.create(group: group.id, singleUse: true, name: "Trip", emoji: "🧗")
        #expect(made.url.hasPrefix("kith://invite/"))
        #expect(made.invite.payload.creatorInboxID.feedID == alice.feedID)

        let seen = try await bob.invites.accept(made.url)
        #expect(seen.signerCheck == .knownContact(alice.feedID))
        #expect(try await bob.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "pending")
        try await Self.deliver(bob, to: alice)
        let afterJoin = try await alice.groups.summary(group.id)
        #expect(afterJoin.members.contains(bob.feedID) && afterJoin.epoch == group.epoch + 1)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.groups.summary(group.id).status == .active)
        #expect(try await bob.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "joined")

        // Carol uses the same invite: refused, and nothing changes at Alice.
        let before = try await Self.state(alice, group.id)
        try await carol.invites.accept(made.url)
        try await Self.deliver(carol, to: alice)
        let after = try await Self.state(alice, group.id)
        #expect(after.0 == before.0 && after.1 == before.1)
        #expect(try alice.store.readGroupState { try $0.consumedInviteCount() } == 1)
        try await Self.deliver(alice, to: carol)
        #expect(try await carol.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "refused")
        await #expect(throws: KithError.self) { try await carol.groups.summary(group.id) }
    }

    @Test func revokingVoidsOutstandingInvitesAndANewOneWorks() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "club")
        let old = try await alice.invites.create(group: group.id)
        let revoked = try await alice.invites.revoke(group: group.id)
        #expect(revoked.metadata?.tag != old.invite.payload.tag)
        let before = try await Self.state(alice, group.id)
        try await bob.invites.accept(old.url)
        try await Self.deliver(bob, to: alice)
        let after = try await Self.state(alice, group.id)
        #expect(after.0 == before.0 && after.1 == before.1)
        #expect(try alice.store.readGroupState { try $0.consumedInviteCount() } == 0)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.invites.joinRequestStatus(creator: alice.feedID, tag: old.invite.payload.tag) == "refused")

        let fresh = try await alice.invites.create(group: group.id)
        #expect(fresh.invite.payload.tag == revoked.metadata?.tag)
        try await bob.invites.accept(fresh.url)
        try await Self.deliver(bob, to: alice)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.groups.summary(group.id).members.contains(bob.feedID))
    }

    @Test func anExplodedConversationRefusesJoins() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "flash", explodeAt: MetAccounts.now + 3_600)
        let made = try await alice.invites.create(group: group.id)
        #expect(made.invite.payload.conversationExpiresAtUnix == MetAccounts.now + 3_600)
        try await alice.groups.explode(group.id)
        try await bob.invites.accept(made.url)
        try await Self.deliver(bob, to: alice)
        #expect(try await alice.groups.summary(group.id).status == .exploded)
        try await Self.deliver(alice, to: bob)
        #expect(try await bob.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "refused")
    }

    @Test func theJoinerRefusesExpiredForgedAndForeignInvitesAndSendsNothing() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "later")
        let made = try await alice.invites.create(group: group.id, expiresIn: 60)
        // Bob's clock is two minutes ahead: the invite expired for him.
        let late = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB1, count: 32)), clock: { MetAccounts.now + 120 })
        try await late.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice", maxAge: 1_000)
        let entries = try await late.feed.export().count
        await #expect(throws: KithError.self) { try await late.invites.accept(made.url) }
        #expect(try await late.feed.export().count == entries)
        #expect(try await late.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == nil)

        // An invite naming Alice but signed by another key: Bob's card of Alice says otherwise.
        let mallory = InviteSigningKey.generate()
        let payload = made.invite.payload
        let forged = try SignedInvite(signing: InvitePayload(
            conversationToken: payload.conversationToken, creatorInboxID: payload.creatorInboxID, tag: payload.tag), with: mallory)
        let forgedURL = InviteLink.kithURL(code: InviteCode.encode(forged))
        #expect(try await bob.invites.inspect(forgedURL).signerCheck == .contactMismatch(alice.feedID))
        let bobEntries = try await bob.feed.export().count
        await #expect(throws: KithError.self) { try await bob.invites.accept(forgedURL) }
        #expect(try await bob.feed.export().count == bobEntries)

        // An invite of someone who is not a contact.
        let stranger = try MetAccounts.account(0xD0)
        let theirs = try await stranger.groups.create(name: "theirs")
        let foreign = try await stranger.invites.create(group: theirs.id)
        #expect(try await bob.invites.inspect(foreign.url).signerCheck == .unbound)
        await #expect(throws: KithError.self) { try await bob.invites.accept(foreign.url) }
        #expect(try await bob.feed.export().count == bobEntries)
    }

    @Test func onlyTheCommitterMakesInvitesAndItsOwnInviteChecks() async throws {
        let (alice, bob, _, group) = try await GroupConversationTests.trio()
        await #expect(throws: KithError.self) { try await bob.invites.create(group: group) }
        await #expect(throws: KithError.self) { try await bob.invites.revoke(group: group) }
        let made = try await alice.invites.create(group: group, name: "trip", description: "<script>alert(1)</script>")
        #expect(try await alice.invites.inspect(made.code).signerCheck == .ownInvite)
        await #expect(throws: KithError.self) { try await alice.invites.create(group: group, name: String(repeating: "x", count: 200)) }
        // Bob (a member already) asks anyway: refused quietly, nothing committed.
        let before = try await Self.state(alice, group)
        try await bob.invites.accept(made.url)
        try await Self.deliver(bob, to: alice)
        let after = try await Self.state(alice, group)
        #expect(after.0 == before.0 && after.1 == before.1)
    }

    @Test func theContactCardCarriesTheInviteKey() async throws {
        let (alice, _) = try await MetAccounts.met()
        let card = try await alice.contacts.card()
        #expect(card.invitePublicKey == (try alice.invites.publicKey()))
    }

    @Test func aFloodOfRefusedRequestsGetsAFewRepliesThenSilence() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "quiet")
        let old = try await alice.invites.create(group: group.id)
        try await alice.invites.revoke(group: group.id)
        let before = try await Self.state(alice, group.id)
        // Bob sends eight requests with the revoked invite (bypassing his own checks, as a hostile client would).
        for _ in 0..<8 {
            try await bob.direct.send(.inviteJoinRequest(InviteJoinRequest(invite: old.code, keyPackageBytes: [1, 2, 3])), to: alice.feedID)
        }
        try await Self.deliver(bob, to: alice)
        let after = try await Self.state(alice, group.id)
        #expect(after.0 == before.0 && after.1 == before.1)
        try await Self.deliver(alice, to: bob)
        let replies = try await bob.direct.conversation(with: alice.feedID).filter { if case .inviteJoinError? = $0.content { true } else { false } }
        #expect(replies.count == JoinRequestBudget().maxRefusals)
    }

    @Test func aRequestWhoseKeyPackageIsNotTheRequestersIsRefusedWithoutACommit() async throws {
        let (alice, bob, _) = try await GroupConversationTests.people()
        let group = try await alice.groups.create(name: "strict")
        let made = try await alice.invites.create(group: group.id, singleUse: true)
        let before = try await Self.state(alice, group.id)
        try await bob.direct.send(.inviteJoinRequest(InviteJoinRequest(invite: made.code, keyPackageBytes: [1, 2, 3])), to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        let after = try await Self.state(alice, group.id)
        #expect(after.0 == before.0 && after.1 == before.1)
        #expect(try alice.store.readGroupState { try $0.consumedInviteCount() } == 0)
        try await Self.deliver(alice, to: bob)
        let replies = try await bob.direct.conversation(with: alice.feedID).compactMap { message -> String? in
            if case .inviteJoinError(let error)? = message.content { error.error } else { nil }
        }
        #expect(replies == ["generic_failure"])
        // The invite was not used up: a proper request still works.
        try await bob.invites.accept(made.url)
        try await Self.deliver(bob, to: alice)
        #expect(try await alice.groups.summary(group.id).members.contains(bob.feedID))
    }
}
