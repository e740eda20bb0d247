@testable import Kith
import Foundation
import KithAccountFixtures
import KithGroups
import KithIdentity
import KithSync
import Testing

/// Group peers (docs/INVITES.md, "Group peers"): a creator and a joiner who never met keep each other's checked card
/// after the invite exchange and sync directly while they share an active group, exchanging only the feeds of the
/// groups they share.
@Suite struct GroupPeerSyncTests {
    static func posts(_ account: Account, _ group: GroupID) async throws -> [String] {
        try await account.groups.messages(group).compactMap { message in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
    }

    /// Alice and Bob are contacts; Dana never met Alice and joins Alice's group with an invite for strangers.
    static func joined() async throws -> (alice: Account, bob: Account, dana: Account, group: GroupID) {
        let (alice, bob) = try await MetAccounts.met()
        let dana = try MetAccounts.account(0xD0)
        let group = try await alice.groups.create(name: "book club")
        let made = try await alice.invites.create(group: group.id, relay: InviteStrangerTests.relay)
        let outcome = await InviteStrangerTests.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(made.url))
        #expect(try outcome.joiner.get() == .joined(group.id))
        return (alice, bob, dana, group.id)
    }

    static func key(_ account: Account) -> [UInt8] { Array(account.identity.publicKeys.dhKey.rawRepresentation) }

    @Test func theCreatorAndAJoinerWhoNeverMetSyncDirectly() async throws {
        let (alice, _, dana, group) = try await Self.joined()
        #expect(try await alice.contacts.record(dana.feedID) == nil)
        #expect(try await dana.contacts.record(alice.feedID) == nil)
        #expect(await alice.makeSyncSource().isSyncPeer(staticKey: Self.key(dana)))
        #expect(await dana.makeSyncSource().isSyncPeer(staticKey: Self.key(alice)))
        #expect(await alice.makeSyncSource().peerName(staticKey: Self.key(dana))?.hasSuffix("(group member)") == true)

        try await alice.groups.send(group, text: "welcome, Dana")
        let first = await SyncPair.session(alice, dana)
        #expect(first.alice.completed && first.bob.completed)
        #expect(try await Self.posts(dana, group).contains("welcome, Dana"))

        try await dana.groups.send(group, text: "thanks, Alice")
        let second = await SyncPair.session(dana, alice)
        #expect(second.alice.completed && second.bob.completed)
        #expect(try await Self.posts(alice, group).contains("thanks, Alice"))
    }

    @Test func aGroupPeerIsOfferedAndAskedOnlyTheFeedsOfSharedGroups() async throws {
        let (alice, bob, dana, _) = try await Self.joined()
        // Alice holds Bob's feed (her contact, in no group with Dana).
        _ = try await bob.publishing.post("for my contacts", audience: .contacts)
        _ = await SyncPair.session(alice, bob)
        #expect(try alice.store.isFollowed(bob.feedID))
        let source = alice.makeSyncSource()
        let danaPeer = SyncPeer(staticKey: Self.key(dana))
        let asked = Set(try await source.followedFeeds(for: danaPeer).map(\.feedID))
        #expect(asked == [alice.feedID, dana.feedID])
        #expect(Set(try await source.servableFeeds(for: danaPeer)) == [alice.feedID, dana.feedID])
        #expect(try await source.outgoing(feed: bob.feedID, above: nil, for: danaPeer) == nil)
        // Bob, a contact, is still offered everything Alice follows.
        let bobPeer = SyncPeer(staticKey: Self.key(bob))
        #expect(Set(try await source.servableFeeds(for: bobPeer)).isSuperset(of: [alice.feedID, bob.feedID, dana.feedID]))

        // Entries of a feed outside the shared groups are refused unread when a group peer delivers them.
        let carol = try MetAccounts.account(0xC0)
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        _ = try await carol.publishing.post("carol's post", audience: .contacts)
        let carolEntries = try await carol.feed.export().map { ReceivedMessage(messageID: SyncMessageID(envelope: $0), envelope: $0) }
        let results = try await source.ingest(carolEntries, from: danaPeer)
        #expect(results.allSatisfy { $0 == .invalid })
        #expect(try alice.store.entries(of: carol.feedID, above: nil, limit: 10).isEmpty)
        // The same entries from Carol herself, a contact, are stored.
        let carolPeer = SyncPeer(staticKey: Self.key(carol))
        _ = try await source.followedFeeds(for: carolPeer)
        #expect(try await source.ingest(carolEntries, from: carolPeer).allSatisfy { $0 == .accepted })
    }

    @Test func aRemovedMemberLosesItsSyncAccess() async throws {
        let (alice, _, dana, group) = try await Self.joined()
        _ = try await alice.groups.remove(group, member: dana.feedID)
        #expect(!(await alice.makeSyncSource().isSyncPeer(staticKey: Self.key(dana))))
        let refused = await SyncPair.session(dana, alice)
        #expect(!refused.alice.completed && !refused.bob.completed)
    }

    @Test func anExplodedGroupEndsItsPeersAccess() async throws {
        let (alice, _, dana, group) = try await Self.joined()
        try await alice.groups.explode(group)
        #expect(!(await alice.makeSyncSource().isSyncPeer(staticKey: Self.key(dana))))
    }
}
