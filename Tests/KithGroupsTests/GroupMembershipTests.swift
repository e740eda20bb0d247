import Crypto
import KithIdentity
import KithMLS
import Testing

@testable import KithGroups

/// Members driven directly (no feeds): the Kith rules over MLS.
@Suite struct GroupMembershipTests {
    static let now: @Sendable () -> UInt64 = { 1_800_000_000 }

    /// A feed and its identity key.
    struct Person {
        let key = Curve25519.Signing.PrivateKey().publicKey
        var feed: FeedID { FeedID(identityKey: key) }

        func keyPackage() throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
            try GroupKeyPackage.generate(for: feed, identityKey: key, now: GroupMembershipTests.now())
        }
    }

    static func feed() -> FeedID { Person().feed }

    /// Alice (committer) with Bob and Carol, everyone at epoch 1.
    static func trio() throws -> (alice: GroupMembership, bob: GroupMembership, carol: GroupMembership) {
        let (pa, pb, pc) = (Person(), Person(), Person())
        let (a, b, c) = (pa.feed, pb.feed, pc.feed)
        var alice = try GroupMembership.create(id: .random(), owner: a, identityKey: pa.key, now: now)
        let bobKP = try pb.keyPackage()
        let carolKP = try pc.keyPackage()
        let added = try alice.commit(adding: [bobKP.keyPackage, carolKP.keyPackage])
        let welcome = try #require(added.welcome)
        #expect(added.kind == .addMember && added.joiners == [b, c])
        let bob = try GroupMembership.join(welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: b, author: a, now: now)
        let carol = try GroupMembership.join(welcome: welcome, keyPackage: carolKP.keyPackage, secrets: carolKP.secrets, own: c, author: a, now: now)
        return (alice, bob, carol)
    }

    static func wire(_ handshake: GroupHandshake, _ group: GroupID) throws -> GroupWireMessage {
        try GroupWireMessage(handshake.message.tlsEncoded, group: group)
    }

    /// A tree over the in-band limit leaves the Welcome: joining needs it, and only the group's own tree will do.
    @Test func aTreeOverTheLimitTravelsApartAndOnlyTheRightTreeJoins() throws {
        let (pa, pb) = (Person(), Person())
        var alice = try GroupMembership.create(id: .random(), owner: pa.feed, identityKey: pa.key, now: Self.now)
        alice.inBandTreeLimit = 0
        let bobKP = try pb.keyPackage()
        let added = try alice.commit(adding: [bobKP.keyPackage])
        let welcome = try #require(added.welcome)
        let tree = try #require(added.ratchetTree)
        #expect(tree == alice.state.tree.tlsEncoded)
        #expect(throws: GroupError.ratchetTreeMissing) {
            try GroupMembership.join(welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: pb.feed, author: pa.feed, now: Self.now)
        }
        // Another group's tree (same shape, other keys) fails MLS's tree-hash check; garbage fails to decode.
        let (other, _, _) = try Self.trio()
        for wrong in [other.state.tree.tlsEncoded, [0x01, 0x02]] {
            #expect(throws: GroupError.self) {
                try GroupMembership.join(
                    welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: pb.feed, author: pa.feed, ratchetTree: wrong, now: Self.now
                )
            }
        }
        let bob = try GroupMembership.join(
            welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: pb.feed, author: pa.feed, ratchetTree: tree, now: Self.now
        )
        #expect(bob.members.count == 2 && bob.epoch == alice.epoch)
        // Under the limit the Welcome carries the tree, as before.
        #expect(try Self.trio().alice.members.count == 3)
    }

    @Test func membersTalkAndTheCommitterChangesMembership() throws {
        var (alice, bob, carol) = try Self.trio()
        #expect(alice.members.count == 3 && bob.epoch == 1 && carol.epoch == 1)
        #expect(Set(bob.memberFeedKeys.map(\.feed)) == bob.memberFeeds)
        #expect(alice.isCommitter && !bob.isCommitter)
        let hello = try GroupWireMessage(try bob.encrypt(Array("hi".utf8)).tlsEncoded, group: bob.id)
        #expect(try alice.receive(hello, from: bob.ownFeed) == .content(Array("hi".utf8), sender: bob.ownFeed))
        #expect(try carol.receive(hello, from: bob.ownFeed) == .content(Array("hi".utf8), sender: bob.ownFeed))

        // Bob asks for a key update; Alice commits it; everyone follows.
        let proposal = try Self.wire(try bob.updateKeys(), bob.id)
        #expect(try alice.receive(proposal, from: bob.ownFeed) == .proposal(from: bob.ownFeed))
        _ = try carol.receive(proposal, from: bob.ownFeed)
        let commit = try #require(try alice.commitPendingProposals())
        let commitWire = try Self.wire(commit, alice.id)
        guard case .newEpoch(let change) = try bob.receive(commitWire, from: alice.ownFeed) else { Issue.record("no epoch"); return }
        #expect(change.epoch == 2 && change.kind == .updateKey)
        #expect(!bob.intents.update)
        _ = try carol.receive(commitWire, from: alice.ownFeed)

        // Alice removes Carol: Carol learns it and cannot read what follows.
        let removal = try Self.wire(try alice.commit(removing: [carol.ownFeed]), alice.id)
        #expect(try carol.receive(removal, from: alice.ownFeed) == .removed(by: alice.ownFeed))
        guard case .newEpoch(let after) = try bob.receive(removal, from: alice.ownFeed) else { Issue.record("no epoch"); return }
        #expect(after.removed == [carol.ownFeed] && after.kind == .removeMember)
        let secret = try GroupWireMessage(try alice.encrypt(Array("after".utf8)).tlsEncoded, group: alice.id)
        #expect(throws: GroupError.self) { try carol.receive(secret, from: alice.ownFeed) }
        #expect(try bob.receive(secret, from: alice.ownFeed) == .content(Array("after".utf8), sender: alice.ownFeed))
    }

    @Test func onlyTheCommitterCommits() throws {
        var (alice, bob, carol) = try Self.trio()
        // Bob builds a commit with the raw MLS state (bypassing the Kith rule); members refuse it unchanged.
        var raw = bob.state
        let forged = try raw.commit(wireFormat: .privateMessage)
        let wire = try GroupWireMessage(forged.message.tlsEncoded, group: bob.id)
        #expect(throws: GroupError.notCommitter(committer: alice.ownFeed)) { try carol.receive(wire, from: bob.ownFeed) }
        #expect(carol.epoch == 1)
        #expect(throws: GroupError.self) { try alice.receive(wire, from: bob.ownFeed) }
        #expect(alice.epoch == 1)
        #expect(throws: GroupError.committerOnly(committer: alice.ownFeed)) { try bob.commit(removing: [carol.ownFeed]) }
    }

    @Test func aMessageCarriedByAnotherFeedIsRefused() throws {
        var (alice, bob, carol) = try Self.trio()
        let hello = try GroupWireMessage(try bob.encrypt(Array("hi".utf8)).tlsEncoded, group: bob.id)
        // Carol copies Bob's message into her own feed.
        #expect(throws: GroupError.senderMismatch(author: carol.ownFeed)) { try alice.receive(hello, from: carol.ownFeed) }
    }

    @Test func membersMayProposeOnlyForThemselves() throws {
        var (alice, bob, carol) = try Self.trio()
        var raw = bob.state
        let removeCarol = try raw.propose(.remove(carol.state.ownLeaf), wireFormat: .privateMessage)
        let wire = try GroupWireMessage(removeCarol.tlsEncoded, group: bob.id)
        #expect(throws: GroupError.forbiddenProposal("only the committer removes other members")) { try alice.receive(wire, from: bob.ownFeed) }
        #expect(alice.state.pendingProposals.isEmpty)
        // Bob's own departure is accepted and committed.
        let leave = try Self.wire(try bob.leave(), bob.id)
        #expect(try alice.receive(leave, from: bob.ownFeed) == .proposal(from: bob.ownFeed))
        let commit = try Self.wire(try #require(try alice.commitPendingProposals()), alice.id)
        #expect(try bob.receive(commit, from: alice.ownFeed) == .removed(by: alice.ownFeed))
        #expect(throws: GroupError.self) { try carol.receive(wire, from: bob.ownFeed) }
    }

    @Test func aJoinFromSomeoneWhoIsNotTheCommitterIsRefused() throws {
        let (pa, pb) = (Person(), Person())
        let (a, b, mallory) = (pa.feed, pb.feed, Self.feed())
        var alice = try GroupMembership.create(id: .random(), owner: a, identityKey: pa.key, now: Self.now)
        let bobKP = try pb.keyPackage()
        let welcome = try #require(try alice.commit(adding: [bobKP.keyPackage]).welcome)
        #expect(throws: GroupError.notCommitter(committer: a)) {
            try GroupMembership.join(welcome: welcome, keyPackage: bobKP.keyPackage, secrets: bobKP.secrets, own: b, author: mallory, now: Self.now)
        }
    }

    @Test func keyPackagesNameTheirOwner() throws {
        let person = Person()
        let (b, c) = (person.feed, Self.feed())
        let bobKP = try person.keyPackage()
        #expect(throws: GroupError.self) { try GroupKeyPackage.generate(for: c, identityKey: person.key, now: Self.now()) }
        try GroupKeyPackage.check(bobKP.keyPackage, owner: b)
        #expect(throws: GroupError.self) { try GroupKeyPackage.check(bobKP.keyPackage, owner: c) }
        #expect(try GroupKeyPackage.decode(bobKP.keyPackage.tlsEncoded) == bobKP.keyPackage)
        #expect(throws: GroupError.self) { try GroupKeyPackage.decode(Array(bobKP.keyPackage.tlsEncoded.dropLast())) }
    }

    @Test func wireMessagesAreCheckedBeforeAnyKeyIsUsed() throws {
        let (alice, _, _) = try Self.trio()
        #expect(throws: GroupError.self) { try GroupWireMessage([0, 1, 0, 2], group: alice.id) }
        var copy = alice
        let message = try copy.encrypt([1])
        #expect(throws: GroupError.self) { try GroupWireMessage(message.tlsEncoded, group: .random()) }
        #expect(throws: GroupError.self) { try GroupWireMessage(message.tlsEncoded + [0], group: alice.id) }
    }
}

/// A member cannot flood the committer with proposals.
@Suite struct ProposalFloodTests {
    @Test func aMemberHasOnePendingProposalOfEachKindPerEpoch() throws {
        var (alice, bob, _) = try GroupMembershipTests.trio()
        var raw = bob.state
        let first = try GroupWireMessage(try raw.proposeUpdate(wireFormat: .privateMessage).tlsEncoded, group: bob.id)
        let second = try GroupWireMessage(try raw.proposeUpdate(wireFormat: .privateMessage).tlsEncoded, group: bob.id)
        #expect(try alice.receive(first, from: bob.ownFeed) == .proposal(from: bob.ownFeed))
        #expect(throws: GroupError.self) { try alice.receive(second, from: bob.ownFeed) }
        #expect(alice.state.pendingProposals.count == 1)
    }
}
